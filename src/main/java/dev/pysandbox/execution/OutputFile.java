package dev.pysandbox.execution;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A file a call wrote in its working directory, returned with its answer ({@code files} out).
 *
 * @param path      relative to the working directory, as {@code files} in names them
 * @param size      the file's whole size in bytes
 * @param text      its content if it is UTF-8 text, else null
 * @param base64    its content in base64 if it is not text, else null
 * @param truncated whether the content shown is only the file's head (setting {@code files.return-bytes})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OutputFile(
        @JsonProperty("path") String path,
        @JsonProperty("size") long size,
        @JsonProperty("text") String text,
        @JsonProperty("base64") String base64,
        @JsonProperty("truncated") boolean truncated) {
}
