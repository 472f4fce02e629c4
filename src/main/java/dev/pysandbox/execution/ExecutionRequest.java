package dev.pysandbox.execution;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One piece of code to run, after validation at the edge.
 *
 * @param language         the language the code is in
 * @param code             the source text
 * @param stdin            what {@code input()} and {@code sys.stdin} read; empty for none
 * @param timeout          wall-clock limit for the code itself (queueing and context set-up not included)
 * @param sessionId        null for a fresh, throw-away context; otherwise the session whose context keeps state
 * @param filename         the name tracebacks show for this code, e.g. {@code <string>} or a script's name
 * @param files            files to place in the working directory before the code runs, by checked relative
 *                         path ({@code files} in); empty for none
 * @param workingDirectory a host folder the code sees read-only as its working directory ({@code run_python}
 *                         with {@code run-python.read-working-directory}); null for the scratch one
 * @param inputs           {@code context.inputs} for the code, as the text of a JSON object
 * @param tools            what the code may do with the operator's other MCP tools (code mode)
 */
public record ExecutionRequest(Language language, String code, String stdin, Duration timeout, String sessionId, String filename,
        Map<String, byte[]> files, Path workingDirectory, String inputs, ToolGrant tools) implements CodeRequest {
    public ExecutionRequest {
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(timeout, "timeout");
        stdin = stdin == null ? "" : stdin;
        filename = filename == null ? "<string>" : filename;
        files = files == null ? Map.of() : Map.copyOf(files);
        inputs = inputs == null ? "{}" : inputs;
        tools = tools == null ? ToolGrant.NONE : tools;
    }

    /** Python without code mode: no inputs, no tools. */
    public ExecutionRequest(String code, String stdin, Duration timeout, String sessionId, String filename,
            Map<String, byte[]> files, Path workingDirectory) {
        this(Language.PYTHON, code, stdin, timeout, sessionId, filename, files, workingDirectory, null, null);
    }

    /** Python with no files in and the scratch working directory. */
    public ExecutionRequest(String code, String stdin, Duration timeout, String sessionId, String filename) {
        this(code, stdin, timeout, sessionId, filename, Map.of(), null);
    }

    /** The same request with another time limit (a call moved to another worker gets the time it has left). */
    public ExecutionRequest withTimeout(Duration limit) {
        return new ExecutionRequest(language, code, stdin, limit, sessionId, filename, files, workingDirectory, inputs, tools);
    }

    /** The same request without the operator's tools: a call run again to rebuild a session must not call them. */
    public ExecutionRequest withoutTools() {
        return new ExecutionRequest(language, code, stdin, timeout, sessionId, filename, files, workingDirectory, inputs, ToolGrant.NONE);
    }

    /** The same request, run in the given session's context. */
    public ExecutionRequest inSession(String session) {
        return new ExecutionRequest(language, code, stdin, timeout, session, filename, files, workingDirectory, inputs, tools);
    }
}
