package dev.pysandbox.execution;

import java.time.Duration;
import java.util.Objects;

/**
 * A look at what a session's context holds ({@code inspect_session}), running none of its code; the result's
 * {@code result} is {@code {variables, variables_omitted, size_bytes, worker_heap_used_bytes,
 * worker_heap_max_bytes}}.
 *
 * @param sessionId the session's context in its worker
 * @param timeout   how long the look may take (a session holding millions of objects is walked in part)
 */
public record InspectionRequest(String sessionId, Duration timeout) implements CodeRequest {
    public InspectionRequest {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(timeout, "timeout");
    }

    /** No code: the worker's own prelude does the looking. */
    @Override
    public String code() {
        return "";
    }

    @Override
    public ToolGrant tools() {
        return ToolGrant.NONE;
    }
}
