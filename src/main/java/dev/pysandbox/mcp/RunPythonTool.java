package dev.pysandbox.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.Status;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;
import dev.pysandbox.mcp.ScriptLocator.Refusal;

/**
 * {@code run_python}, in the shape of the RunPython tool that agents already know: code or a script file,
 * answered as plain text ({@code Stdout:…Stderr:…} or {@code Error: …}), with the same structured result as
 * {@code execute_code} beside it for clients that read structured content. It runs in the same sandbox;
 * only the script file itself is read from the host, by the server, and only under a run root the operator
 * set ({@code run-python.root}): without one, calls give code (README, run_python).
 */
final class RunPythonTool {
    static final String TITLE = "Run Python";
    static final String NAME = "run_python";
    /**
     * Without a run root the server names no host file for a caller: the working directory it would fall back
     * to is {@code /} under desktop hosts, where scriptPath would run any .py on the machine (issue 22).
     */
    static final String NO_RUN_ROOT = "scriptPath and workingDirectory name files of the server's host, and this"
            + " server has no run directory to read them from: the operator can start it with"
            + " --run-python.root=/absolute/path/to/scripts (setting run-python.root) to allow the .py files under"
            + " that folder. Send the code instead.";

    private final CodeRunner runner;
    private final ServerConfig config;
    /** Null without a run root: then no call may name a file of the host. */
    private final ScriptLocator locator;

    RunPythonTool(CodeRunner runner, ServerConfig config) throws IOException {
        this.runner = runner;
        this.config = config;
        this.locator = config.runRoot() == null ? null : new ScriptLocator(config.runRoot());
    }

    Tool tool(McpJsonMapper json) {
        return Tool.builder()
                .name(NAME)
                .title(TITLE)
                .annotations(CodeRunner.annotations(TITLE))
                .meta(ResultView.toolMeta())
                .description(locator == null
                        ? "Runs Python code in the sandbox and answers 'Stdout:\\n…\\nStderr:\\n…' or 'Error: …'."
                                + " Give code: this server reads no script files (scriptPath and workingDirectory are"
                                + " refused). Timeout " + config.runPythonTimeout().toSeconds() + " s."
                        : "Runs Python code, or a .py script under the server's run directory, in the sandbox"
                                + " and answers 'Stdout:\\n…\\nStderr:\\n…' or 'Error: …'. Give code or scriptPath;"
                                + " scriptPath wins. Timeout " + config.runPythonTimeout().toSeconds() + " s.")
                .inputSchema(json, ToolSchemas.load("run_python.input.json", Map.of()))
                .outputSchema(json, ToolSchemas.load("execute_code.output.json", Map.of()))
                .build();
    }

    ToolAnswer call(Caller caller, CallToolRequest request) {
        ExecutionResult result = run(new CallArguments(request.arguments()), caller, request.progressToken());
        String answer = describe(result, config.runPythonTimeout().toSeconds());
        CallToolResult.Builder built = CallToolResult.builder()
                .addTextContent(answer)
                .structuredContent(AnswerJson.object(result))
                .isError(answer.startsWith("Error: "));
        ExecuteCodeTool.images(built, result);
        return ToolAnswer.of(built.build(), result, Language.PYTHON);
    }

    /** Runs the call; input the rules refuse becomes a setup_error whose message is the text after "Error: ". */
    ExecutionResult run(CallArguments arguments, Caller caller, Object progressToken) {
        ExecutionRequest request;
        try {
            request = toRequest(arguments);
        } catch (InvalidArgument | Refusal e) {
            return ExecutionResult.setupError(e.getMessage());
        }
        return runner.run(request, caller, progressToken);
    }

    private ExecutionRequest toRequest(CallArguments arguments) throws InvalidArgument, Refusal {
        String code = arguments.optionalString("code");
        String scriptPath = arguments.optionalString("scriptPath");
        String workingDirectory = arguments.optionalString("workingDirectory");
        if (scriptPath == null && code == null) {
            throw new InvalidArgument("provide either code or scriptPath.");
        }
        if (locator == null && (scriptPath != null || workingDirectory != null)) {
            throw new InvalidArgument(NO_RUN_ROOT);
        }
        String filename = "<string>";
        Path directory = locator == null ? null
                : workingDirectory == null ? locator.root() : locator.directory(workingDirectory);
        if (scriptPath != null) {
            ScriptLocator.Script script = locator.locate(scriptPath, workingDirectory);
            code = read(script);
            filename = script.displayName();
        }
        runner.checkSize(code);
        // The script may see its folder (read-only) only where the operator allowed it, which takes a run root
        // (ServerConfig); else a scratch folder.
        return new ExecutionRequest(code, "", config.runPythonTimeout(), null, filename, Map.of(),
                config.runReadsWorkingDirectory() ? directory : null);
    }

    private String read(ScriptLocator.Script script) throws InvalidArgument {
        try {
            long size = Files.size(script.file());
            if (size > config.maxCodeBytes()) {
                throw new InvalidArgument("script is " + size + " bytes; the limit is " + config.maxCodeBytes()
                        + " bytes (setting code.max-bytes).");
            }
            return Files.readString(script.file(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidArgument(ScriptLocator.NOT_A_SCRIPT);
        }
    }

    static String describe(ExecutionResult result, long timeoutSeconds) {
        String output = "Stdout:\n" + result.stdout() + "\nStderr:\n" + result.stderr();
        if (result.status() == Status.SUCCESS) {
            return output;
        }
        if (result.status() == Status.TIMEOUT) {
            return "Error: Script timed out after " + timeoutSeconds + " seconds.\n" + output;
        }
        if (result.status() == Status.SETUP_ERROR) {
            return "Error: " + result.errorMessage();
        }
        return "Error: " + result.errorMessage() + "\n" + output;
    }
}
