package dev.pysandbox.supervisor;

import java.time.Duration;

import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolOp;

/**
 * An execution's tool calls that say when the first call of a tool goes out ({@link ToolOp#CALL} or
 * {@link ToolOp#CALL_RAW}; listing, searching and describing act on nothing): from then on the execution has
 * done something outside its sandbox and must not be sent again.
 */
final class FirstToolCall extends ForwardingToolCalls {
    private final Runnable first;
    private volatile boolean called;

    FirstToolCall(ToolCalls calls, Runnable first) {
        super(calls);
        this.first = first;
    }

    @Override
    public String handle(ToolOp op, String tool, String params, Duration remaining) {
        if (!called && (op == ToolOp.CALL || op == ToolOp.CALL_RAW)) {
            called = true;
            first.run(); // before the call goes out
        }
        return super.handle(op, tool, params, remaining);
    }
}
