package dev.pysandbox.mcp;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;

/**
 * One tool's answer to one call, with what the server's metrics count of it: how it ended, and the operator's
 * tools its code called (code mode).
 */
record ToolAnswer(CallToolResult result, Status status, List<ToolCall> toolCalls) {
    ToolAnswer {
        toolCalls = List.copyOf(toolCalls);
    }

    /** The answer to a call that ran (or was refused) as {@code execution} says. */
    static ToolAnswer of(CallToolResult result, ExecutionResult execution) {
        return new ToolAnswer(result, execution.status(), execution.toolCalls());
    }

    /** An answer that ran no code: a success, or a setup error when the answer is one. */
    static ToolAnswer withoutCode(CallToolResult result) {
        return new ToolAnswer(result, Boolean.TRUE.equals(result.isError()) ? Status.SETUP_ERROR : Status.SUCCESS,
                List.of());
    }
}
