package dev.pysandbox.mcp;

import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.execution.SessionReport;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;
import dev.pysandbox.supervisor.Sandbox;

/**
 * {@code inspect_session}: what a session of {@code execute_code} holds (its variables' names, types and sizes),
 * its age, calls and memory, or why it ended, without running any code in it: so that an agent that lost track
 * can look, and one whose session ended learns why.
 */
final class InspectSessionTool {
    static final String NAME = "inspect_session";
    private static final String TITLE = "Show what a Python session holds";

    private final Sandbox sandbox;

    InspectSessionTool(Sandbox sandbox) {
        this.sandbox = sandbox;
    }

    Tool tool(McpJsonMapper json) {
        return Tool.builder()
                .name(NAME)
                .title(TITLE)
                .annotations(CodeRunner.annotations(TITLE))
                .description("Shows what an execute_code session holds without running code in it: its variables"
                        + " (name, type, size in bytes, length), its age, idle time and calls, its memory, and whether"
                        + " it would be rebuilt if its worker were lost to another call. For a session that ended, says"
                        + " why: expired, evicted, lost_to_its_own_call (its own code cost its worker) or not_rebuilt.")
                .inputSchema(json, ToolSchemas.load("inspect_session.input.json", Map.of()))
                .outputSchema(json, ToolSchemas.load("inspect_session.output.json", Map.of()))
                .build();
    }

    ToolAnswer call(Caller caller, CallToolRequest request) {
        return ToolAnswer.withoutCode(inspect(caller, request));
    }

    private CallToolResult inspect(Caller caller, CallToolRequest request) {
        String sessionId;
        try {
            sessionId = new CallArguments(request.arguments()).requiredString("session_id");
            if (sessionId.isBlank() || sessionId.length() > 128) {
                throw new InvalidArgument("Argument 'session_id' must be 1 to 128 characters.");
            }
        } catch (InvalidArgument e) {
            return CallToolResult.builder().addTextContent(e.getMessage()).isError(true).build();
        }
        SessionReport report;
        try {
            report = sandbox.inspect(caller.sessionKey(sessionId), sessionId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CallToolResult.builder().addTextContent("The inspection was cancelled.").isError(true).build();
        }
        String json = AnswerJson.text(report);
        return CallToolResult.builder()
                .addTextContent(json)
                .structuredContent(AnswerJson.readObject(json))
                .build();
    }
}
