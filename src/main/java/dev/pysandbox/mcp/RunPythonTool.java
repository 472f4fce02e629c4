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
import dev.pysandbox.execution.Status;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;
import dev.pysandbox.mcp.ScriptLocator.Refusal;
import dev.pysandbox.wire.WireCodec;

/**
 * {@code run_python}, in the shape of the RunPython tool that agents already know: code or a script file,
 * answered as plain text ({@code Stdout:…Stderr:…} or {@code Error: …}), with the same structured result as
 * {@code execute_code} beside it for clients that read structured content. It runs in the same sandbox;
 * only the script file itself is read from the host, by the server.
 */
final class RunPythonTool {
    static final String TITLE = "Run Python";
    static final String NAME = "run_python";

    private final CodeRunner runner;
    private final ServerConfig config;
    private final ScriptLocator locator;
    private final boolean hostFiles;

    /**
     * @param hostFiles whether calls may name files of the server's host (scriptPath, workingDirectory); over
     *                  HTTP only where the operator chose a run root, since callers are then remote
     */
    RunPythonTool(CodeRunner runner, ServerConfig config, boolean hostFiles) throws IOException {
        this.runner = runner;
        this.config = config;
        this.locator = new ScriptLocator(config.runRoot());
        this.hostFiles = hostFiles;
    }

    Tool tool(McpJsonMapper json) {
        return Tool.builder()
                .name(NAME)
                .title(TITLE)
                .annotations(CodeRunner.annotations(TITLE))
                .description("Runs Python code, or a .py script under the server's run directory, in the sandbox"
                        + " and answers 'Stdout:\\n…\\nStderr:\\n…' or 'Error: …'. Give code or scriptPath;"
                        + " scriptPath wins. Timeout " + config.runPythonTimeout().toSeconds() + " s.")
                .inputSchema(json, ToolSchemas.load("run_python.input.json", Map.of()))
                .outputSchema(json, ToolSchemas.load("execute_code.output.json", Map.of()))
                .build();
    }

    CallToolResult call(Caller caller, CallToolRequest request) {
        ExecutionResult result = run(new CallArguments(request.arguments()), caller, request.progressToken());
        String answer = describe(result, config.runPythonTimeout().toSeconds());
        return CallToolResult.builder()
                .addTextContent(answer)
                .structuredContent(WireCodec.toMap(result))
                .isError(answer.startsWith("Error: "))
                .build();
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
        if (!hostFiles && (scriptPath != null || workingDirectory != null)) {
            throw new InvalidArgument("scriptPath and workingDirectory name files of the server's host, which this"
                    + " server does not offer to remote callers (the operator may set run-python.root); send the code"
                    + " instead.");
        }
        String filename = "<string>";
        Path directory = workingDirectory == null ? locator.root() : locator.directory(workingDirectory);
        if (scriptPath != null) {
            ScriptLocator.Script script = locator.locate(scriptPath, workingDirectory);
            code = read(script);
            filename = script.displayName();
        }
        runner.checkSize(code);
        // The script may see its folder (read-only) only where the operator allowed it; else a scratch folder.
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
