package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.execution.ToolReply;

/**
 * Tools that answer every request with the same value and remember the operations and time they were given.
 */
final class SeenToolCalls implements ToolCalls {
    final List<ToolOp> ops = new CopyOnWriteArrayList<>();
    final List<Duration> times = new CopyOnWriteArrayList<>();

    @Override
    public String handle(ToolOp op, String tool, String params, Duration remaining) {
        ops.add(op);
        times.add(remaining);
        return ToolReply.ok("seen").json();
    }

    @Override
    public List<ToolCall> finish(ToolErrorKind inFlightError) {
        return List.of();
    }

    @Override
    public int omitted() {
        return 0;
    }

    @Override
    public String catalog() {
        return "{}";
    }
}
