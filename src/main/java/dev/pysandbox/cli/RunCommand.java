package dev.pysandbox.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Status;
import dev.pysandbox.mcp.AnswerJson;
import dev.pysandbox.supervisor.Sandbox;

/**
 * {@code run}: one snippet through the same sandbox the server uses, its result printed as JSON. The
 * quickest way to see what a call returns, without an MCP client.
 */
public final class RunCommand {
    /** What to run: inline code, or a script path ({@code -} for stdin). */
    public record Input(String code, String script, String stdin, Integer timeoutSeconds) {
    }

    private final Input input;
    private final ServerConfig config;

    public RunCommand(Input input, ServerConfig config) {
        this.input = input;
        this.config = config;
    }

    /** Runs and prints; returns the process exit code (0 on success, 1 otherwise). */
    public int execute(Sandbox sandbox, PrintStream out) throws InterruptedException {
        String code;
        String filename = "<string>";
        try {
            if (input.code() != null) {
                code = input.code();
            } else if (input.script().equals("-")) {
                code = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
                filename = "<stdin>";
            } else {
                code = Files.readString(Path.of(input.script()), StandardCharsets.UTF_8);
                filename = Path.of(input.script()).getFileName().toString();
            }
        } catch (IOException e) {
            System.err.println("python-sandbox-mcp: cannot read " + input.script() + ": " + e.getMessage());
            return 2;
        }
        Duration timeout = input.timeoutSeconds() == null ? config.defaultTimeout() : Duration.ofSeconds(input.timeoutSeconds());
        ExecutionResult result = sandbox.execute(new ExecutionRequest(code, input.stdin(), timeout, null, filename));
        out.println(AnswerJson.text(result));
        return result.status() == Status.SUCCESS ? 0 : 1;
    }
}
