package dev.pysandbox.execution;

import java.time.Duration;
import java.util.Objects;

/**
 * Code to check ({@code validate_code}) instead of running it, in a fresh context; the result's {@code result}
 * is {@code {valid, errors}}.
 *
 * @param language the language the code is in
 * @param code    the source text
 * @param timeout how long the check may take
 * @param tools   the grant whose tool names literal names in the code are checked against (code mode)
 */
public record ValidationRequest(Language language, String code, Duration timeout, ToolGrant tools) implements CodeRequest {
    public ValidationRequest {
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(timeout, "timeout");
        tools = tools == null ? ToolGrant.NONE : tools;
    }
}
