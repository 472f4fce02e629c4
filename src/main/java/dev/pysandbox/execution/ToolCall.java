package dev.pysandbox.execution;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One tool call an execution made through code mode, as the supervisor recorded it. Neither its arguments nor
 * its result are kept: the record says a call happened (it may have had side effects) without carrying the
 * data the code meant to keep out of the model's context.
 *
 * @param tool       the qualified name the code asked for, {@code server.tool}
 * @param ok         whether the tool answered without an error
 * @param durationMs time from the request to its end, in milliseconds
 * @param error      why it failed when not ok; null when ok
 */
public record ToolCall(
        @JsonProperty("tool") String tool,
        @JsonProperty("ok") boolean ok,
        @JsonProperty("duration_ms") long durationMs,
        @JsonProperty("error") @JsonInclude(JsonInclude.Include.NON_NULL) ToolErrorKind error) {
}
