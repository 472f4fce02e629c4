package dev.pysandbox.mcp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.bridge.CodeMode;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.execution.ValidationRequest;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;

/**
 * {@code validate_code}: what would fail in a piece of code, found without running it: syntax, imports the
 * profile refuses, names the strict profile forbids, literal tool names that are unknown or not allowed, an
 * {@code await} on a tool call. The parsing happens in a worker like any code (a parser fed a pathological
 * input must not take the server down), with {@code ast} only.
 */
final class ValidateCodeTool {
    static final String NAME = "validate_code";
    private static final String TITLE = "Check Python code without running it";
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final CodeRunner runner;
    private final CodeMode codeMode;

    ValidateCodeTool(CodeRunner runner, CodeMode codeMode) {
        this.runner = runner;
        this.codeMode = codeMode;
    }

    Tool tool(McpJsonMapper json) {
        return Tool.builder()
                .name(NAME)
                .title(TITLE)
                .annotations(CodeRunner.annotations(TITLE))
                .description("Checks code for execute_code without running it. Python: syntax errors, imports this"
                        + " sandbox refuses, names the strict profile forbids, tool names (code mode) that are unknown"
                        + " or not allowed, and `await` on a tool call. JavaScript (language \"javascript\"): syntax"
                        + " errors. Returns {valid, errors: [{line, column, kind, message}]}.")
                .inputSchema(json, ToolSchemas.load("validate_code.input.json", Map.of()))
                .outputSchema(json, ToolSchemas.load("validate_code.output.json", Map.of()))
                .build();
    }

    ToolAnswer call(Caller caller, CallToolRequest request) {
        CallArguments arguments = new CallArguments(request.arguments());
        ExecutionResult result = validate(arguments, caller, request.progressToken());
        Map<String, Object> report = report(result);
        return ToolAnswer.of(CallToolResult.builder()
                .addTextContent(AnswerJson.text(report))
                .structuredContent(report)
                .isError(report.get("error_message") != null)
                .build(), result, arguments.raw("language") == null ? Language.PYTHON
                        : ExecuteCodeTool.namedLanguage(arguments));
    }

    private ExecutionResult validate(CallArguments arguments, Caller caller, Object progressToken) {
        try {
            Language language = arguments.optionalString("language") == null ? Language.PYTHON
                    : ExecuteCodeTool.language(arguments);
            String code = arguments.requiredString("code");
            runner.checkSize(code);
            ToolGrant grant = new ToolGrant(true, null, codeMode.maxToolCalls());
            return runner.run(new ValidationRequest(language, code, LIMIT, grant), caller, progressToken);
        } catch (InvalidArgument e) {
            return ExecutionResult.setupError(e.getMessage());
        }
    }

    /** The report the tool answers with: the worker's, or a failed one saying why the code was not checked. */
    private static Map<String, Object> report(ExecutionResult result) {
        if (result.status() == Status.SUCCESS && result.result() instanceof Map<?, ?> checked) {
            Map<String, Object> report = new LinkedHashMap<>();
            checked.forEach((key, value) -> report.put(String.valueOf(key), value));
            return report;
        }
        Map<String, Object> failed = new LinkedHashMap<>();
        failed.put("valid", false);
        failed.put("errors", List.of());
        failed.put("error_message", result.errorMessage() == null ? "The code could not be checked." : result.errorMessage());
        return failed;
    }
}
