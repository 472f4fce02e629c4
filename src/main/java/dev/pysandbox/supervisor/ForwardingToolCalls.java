package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.List;

import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolOp;

/** Tool calls that pass everything on to {@code calls}: the base of the supervisor's decorators, which change handle. */
abstract class ForwardingToolCalls implements ToolCalls {
    private final ToolCalls calls;

    ForwardingToolCalls(ToolCalls calls) {
        this.calls = calls;
    }

    @Override
    public String handle(ToolOp op, String tool, String params, Duration remaining) {
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
