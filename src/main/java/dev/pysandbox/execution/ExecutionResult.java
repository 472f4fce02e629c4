package dev.pysandbox.execution;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a call produced. Field names are the wire names of {@code execute_code}'s structured result.
 *
 * @param exitCode      0 success, 1 uncaught exception or sandbox violation, -1 timeout, n for {@code sys.exit(n)}
 * @param executionTime seconds the code ran, measured in the worker
 * @param errorMessage  null on success; otherwise one line a person can act on
 * @param result        the value of the variable {@code result} if the code set one (JSON value or its repr)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ExecutionResult(
        @JsonProperty("status") Status status,
        @JsonProperty("stdout") String stdout,
        @JsonProperty("stderr") String stderr,
        @JsonProperty("exit_code") int exitCode,
        @JsonProperty("execution_time") double executionTime,
        @JsonProperty("error_message") String errorMessage,
        @JsonProperty("result") Object result,
        @JsonProperty("truncated") Truncation truncated) {

    /** Which outputs were cut to the capture limit. */
    public record Truncation(
            @JsonProperty("stdout") boolean stdout,
            @JsonProperty("stderr") boolean stderr,
            @JsonProperty("result") boolean result) {
        public static final Truncation NONE = new Truncation(false, false, false);
    }

    /**
     * What a caller reads when its code hit the worker's heap cap, whether the worker caught the
     * OutOfMemoryError itself or the JVM ended the worker for it (-XX:+ExitOnOutOfMemoryError).
     */
    public static final String MEMORY_LIMIT_MESSAGE = "Memory limit reached: the code needed more memory than a"
            + " sandbox worker may use (setting worker.heap); the worker was replaced.";

    public ExecutionResult {
        stdout = stdout == null ? "" : stdout;
        stderr = stderr == null ? "" : stderr;
        truncated = truncated == null ? Truncation.NONE : truncated;
    }

    /** A call that never reached Python: bad input, no worker, a lost session. */
    public static ExecutionResult setupError(String message) {
        return new ExecutionResult(Status.SETUP_ERROR, "", "", 1, 0.0, message, null, Truncation.NONE);
    }

    /** A call whose worker went away under it, so nothing it printed could be recovered. */
    public static ExecutionResult lost(Status status, int exitCode, double seconds, String message) {
        return new ExecutionResult(status, "", "", exitCode, seconds, message, null, Truncation.NONE);
    }
}
