package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.execution.ToolReply;

/**
 * Tools that answer every request with the same value and remember the operations and time they were given, and
 * how often they were asked whether a tool was called ({@link #endIfUnused}: not once a call or raw call was made).
 */
final class SeenToolCalls implements ToolCalls {
    final List<ToolOp> ops = new CopyOnWriteArrayList<>();
    final List<Duration> times = new CopyOnWriteArrayList<>();
    final AtomicInteger askedIfUnused = new AtomicInteger();

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
    public boolean endIfUnused() {
        askedIfUnused.incrementAndGet();
        return ops.stream().noneMatch(op -> op == ToolOp.CALL || op == ToolOp.CALL_RAW);
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
