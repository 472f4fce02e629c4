package dev.pysandbox.mcp;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Status;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;
import dev.pysandbox.wire.WireCodec;

/**
 * {@code execute_code}: validate, run in the sandbox, answer with the result as structured content and as
 * JSON text. Every answer has the same shape; input the sandbox refuses comes back as {@code setup_error}.
 */
final class ExecuteCodeTool {
    static final String TITLE = "Execute Python code";
    static final String NAME = "execute_code";

    private final CodeRunner runner;
    private final ServerConfig config;

    ExecuteCodeTool(CodeRunner runner, ServerConfig config) {
        this.runner = runner;
        this.config = config;
    }

    SyncToolSpecification specification(McpJsonMapper json) {
        Map<String, String> limits = Map.of(
                "max_timeout", Long.toString(config.maxTimeout().toSeconds()),
                "default_timeout", Long.toString(config.defaultTimeout().toSeconds()),
                "session_idle", config.sessionIdleTimeout().toSeconds() + " s");
        Tool tool = Tool.builder()
                .name(NAME)
                .title(TITLE)
                .annotations(CodeRunner.annotations(TITLE))
                .description("Runs Python 3.12 code (GraalPy) in an isolated sandbox with no file system, network,"
                        + " processes or host access, and returns stdout, stderr, exit_code, status and the value of"
                        + " a `result` variable. Pure-computation standard library modules are available."
                        + " Pass session_id to keep variables between calls.")
                .inputSchema(json, ToolSchemas.load("execute_code.input.json", limits))
                .outputSchema(json, ToolSchemas.load("execute_code.output.json", Map.of()))
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler(this::call).build();
    }

    private CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request) {
        ExecutionResult result = execute(new CallArguments(request.arguments()), exchange, request.progressToken());
        return CallToolResult.builder()
                .addTextContent(WireCodec.encode(result))
                .structuredContent(WireCodec.toMap(result))
                .isError(result.status() == Status.SETUP_ERROR)
                .build();
    }

    ExecutionResult execute(CallArguments arguments, McpSyncServerExchange exchange, Object progressToken) {
        ExecutionRequest request;
        try {
            request = toRequest(arguments);
        } catch (InvalidArgument e) {
            return ExecutionResult.setupError(e.getMessage());
        }
        return runner.run(request, exchange, progressToken);
    }

    private ExecutionRequest toRequest(CallArguments arguments) throws InvalidArgument {
        String language = arguments.requiredString("language");
        if (!language.strip().toLowerCase(Locale.ROOT).equals("python")) {
            throw new InvalidArgument("Unsupported language '" + language + "': only 'python' is supported.");
        }
        String code = arguments.requiredString("code");
        runner.checkSize(code);
        int timeout = arguments.optionalInt("timeout", 1, (int) config.maxTimeout().toSeconds(),
                (int) config.defaultTimeout().toSeconds());
        String sessionId = arguments.optionalString("session_id");
        if (sessionId != null && (sessionId.isBlank() || sessionId.length() > 128)) {
            throw new InvalidArgument("Argument 'session_id' must be 1 to 128 characters.");
        }
        return new ExecutionRequest(code, arguments.optionalString("stdin"), Duration.ofSeconds(timeout), sessionId, "<string>");
    }
}
