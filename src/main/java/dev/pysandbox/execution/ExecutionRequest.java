package dev.pysandbox.execution;

import java.time.Duration;
import java.util.Objects;

/**
 * One piece of Python to run, after validation at the edge.
 *
 * @param code      the source text
 * @param stdin     what {@code input()} and {@code sys.stdin} read; empty for none
 * @param timeout   wall-clock limit for the code itself (queueing and context set-up not included)
 * @param sessionId null for a fresh, throw-away context; otherwise the session whose context keeps state
 * @param filename  the name tracebacks show for this code, e.g. {@code <string>} or a script's name
 */
public record ExecutionRequest(String code, String stdin, Duration timeout, String sessionId, String filename) {
    public ExecutionRequest {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(timeout, "timeout");
        stdin = stdin == null ? "" : stdin;
        filename = filename == null ? "<string>" : filename;
    }
}
