package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.List;

import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolOp;

/**
 * An execution's tool calls that say when the first call of a tool goes out ({@link ToolOp#CALL} or
 * {@link ToolOp#CALL_RAW}; listing, searching and describing act on nothing): from then on the execution has
 * done something outside its sandbox and must not be sent again.
 */
final class FirstToolCall implements ToolCalls {
    private final ToolCalls calls;
    private final Runnable first;
    private volatile boolean called;

    FirstToolCall(ToolCalls calls, Runnable first) {
        this.calls = calls;
        this.first = first;
    }

    @Override
    public String handle(ToolOp op, String tool, String params, Duration remaining) {
        if (!called && (op == ToolOp.CALL || op == ToolOp.CALL_RAW)) {
            called = true;
            first.run(); // before the call goes out
        }
        return calls.handle(op, tool, params, remaining);
    }

    @Override
    public List<ToolCall> finish(ToolErrorKind inFlightError) {
        return calls.finish(inFlightError);
    }

    @Override
    public int omitted() {
        return calls.omitted();
    }

    @Override
    public String catalog() {
        return calls.catalog();
    }
}
