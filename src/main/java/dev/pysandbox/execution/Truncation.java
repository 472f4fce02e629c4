package dev.pysandbox.execution;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Which fields were cut to their part of the {@link AnswerBudget}, by the worker before it wrote its report or by
 * the supervisor after it read it; the answer's {@code truncated}.
 */
public record Truncation(
        @JsonProperty("stdout") boolean stdout,
        @JsonProperty("stderr") boolean stderr,
        @JsonProperty("result") boolean result,
        @JsonProperty("error_message") boolean errorMessage,
        @JsonProperty("files") boolean files) {
    public static final Truncation NONE = new Truncation(false, false, false, false, false);
}
