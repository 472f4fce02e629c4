package dev.pysandbox.mcp;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;

/**
 * One tool's answer to one call, with what the server's metrics count of it: how it ended, the language of its
 * code (null for a call with none, such as inspect_session's), and the operator's tools its code called (code mode).
 */
record ToolAnswer(CallToolResult result, Status status, Language language, List<ToolCall> toolCalls) {
    ToolAnswer {
        toolCalls = List.copyOf(toolCalls);
    }

    /**
     * The answer to a call that ran (or was refused) as {@code execution} says.
     *
     * @param language the language the call named; null when it named none the sandbox runs
     */
    static ToolAnswer of(CallToolResult result, ExecutionResult execution, Language language) {
        return new ToolAnswer(result, execution.status(), language, execution.toolCalls());
    }

    /** An answer that ran no code: a success, or a setup error when the answer is one. */
    static ToolAnswer withoutCode(CallToolResult result) {
        return new ToolAnswer(result, Boolean.TRUE.equals(result.isError()) ? Status.SETUP_ERROR : Status.SUCCESS,
                null, List.of());
    }
}
