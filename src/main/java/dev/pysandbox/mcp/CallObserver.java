package dev.pysandbox.mcp;

import java.time.Duration;
import java.util.List;

import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;

/** Told of each call of the server's tools as it ends: remote mode counts them for its metrics. */
@FunctionalInterface
interface CallObserver {
    /** Counts nothing (stdio, which has no metrics endpoint). */
    CallObserver NONE = (tool, language, status, elapsed, toolCalls) -> { };

    /**
     * @param language  the language of the call's code; null for a call with none
     * @param toolCalls the operator's tools the call's code called (code mode)
     */
    void ended(String tool, Language language, Status status, Duration elapsed, List<ToolCall> toolCalls);
}
