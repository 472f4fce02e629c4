package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.List;

import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.ToolCall;

/**
 * One run on a worker as the supervisor saw it end: the worker's report, held to the answer budget on arrival,
 * and the tool calls the supervisor recorded for it, which no worker reports (SECURITY.md, "What must hold", 7).
 * {@link Sandbox} answers the call from it.
 *
 * @param toolCallsOmitted calls made beyond those {@code toolCalls} lists
 */
record WorkerRun(RunReport report, List<ToolCall> toolCalls, int toolCallsOmitted) {
    WorkerRun {
        toolCalls = List.copyOf(toolCalls);
    }

    /** A run that made no tool call: one whose code never started, or that the supervisor ended in its place. */
    static WorkerRun without(RunReport report) {
        return new WorkerRun(report, List.of(), 0);
    }

    /** Whether the code called any of the operator's tools. */
    boolean usedTools() {
        return !toolCalls.isEmpty() || toolCallsOmitted > 0;
    }

    /** This run, a twin started {@code secondsBefore} after its call, within {@code limit} (see {@link LongCalls}). */
    WorkerRun startedAfter(double secondsBefore, Duration limit, Duration timeout) {
        return new WorkerRun(report.startedAfter(secondsBefore, limit, timeout), toolCalls, toolCallsOmitted);
    }
}
