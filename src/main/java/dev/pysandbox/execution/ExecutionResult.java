package dev.pysandbox.execution;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a call produced. Field names are the wire names of {@code execute_code}'s structured result.
 *
 * @param exitCode      0 success, 1 uncaught exception or sandbox violation, -1 timeout, n for {@code sys.exit(n)}
 * @param executionTime seconds the code ran, measured in the worker
 * @param errorMessage  null on success; otherwise one line a person can act on
 * @param result        the value of the variable {@code result} if the code set one (JSON value or its repr)
 * @param files         the files the call wrote in its working directory; empty for none
 * @param filesOmitted  files the call wrote that {@code files} leaves out (see {@link AnswerBudget}); left out when 0
 * @param installing    modules the code imported that the server has started to install
 *                      ({@code packages.auto-install}); empty, and left out of the JSON, for none
 * @param toolCalls     the operator's tools the code called (code mode), as the supervisor recorded them;
 *                      always present, empty for none
 * @param toolCallsOmitted calls made beyond the ones {@code toolCalls} lists (it is capped); left out when 0
 * @param sessionNew    for a call with a session: whether it started the session, i.e. no earlier call of this
 *                      id reached a worker of this server. Behind a load balancer, {@code true} after the first call
 *                      means the session's state was lost (its replica restarted, or the call was routed
 *                      elsewhere). Null, and left out, for calls without a session
 * @param sessionRebuilt for a call with a session whose worker was lost to another call (or replaced): how many of
 *                      the session's earlier calls were run again on a new worker to rebuild its state before this
 *                      one ran. Null, and left out, when nothing was rebuilt
 * @param sessionEnded  for a call naming a session that has ended: why ({@link SessionEnding}); its message says
 *                      more. Null, and left out, otherwise
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
        @JsonProperty("truncated") Truncation truncated,
        @JsonProperty("files") List<OutputFile> files,
        @JsonProperty("files_omitted") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int filesOmitted,
        @JsonProperty("installing") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> installing,
        @JsonProperty("tool_calls") List<ToolCall> toolCalls,
        @JsonProperty("tool_calls_omitted") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int toolCallsOmitted,
        @JsonProperty("session_new") @JsonInclude(JsonInclude.Include.NON_NULL) Boolean sessionNew,
        @JsonProperty("session_rebuilt") @JsonInclude(JsonInclude.Include.NON_NULL) Integer sessionRebuilt,
        @JsonProperty("session_ended") @JsonInclude(JsonInclude.Include.NON_NULL) SessionEnding sessionEnded) {

    /** Which fields were cut to their part of the {@link AnswerBudget}. */
    public record Truncation(
            @JsonProperty("stdout") boolean stdout,
            @JsonProperty("stderr") boolean stderr,
            @JsonProperty("result") boolean result,
            @JsonProperty("error_message") boolean errorMessage,
            @JsonProperty("files") boolean files) {
        public static final Truncation NONE = new Truncation(false, false, false, false, false);
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
        files = files == null ? List.of() : List.copyOf(files);
        installing = installing == null ? List.of() : List.copyOf(installing);
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    /** A result without files out. */
    public ExecutionResult(Status status, String stdout, String stderr, int exitCode, double executionTime,
            String errorMessage, Object result, Truncation truncated) {
        this(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated, List.of(), 0, List.of(),
                List.of(), 0, null, null, null);
    }

    /** This result with the files the call wrote, and how many more it wrote than {@code written} lists. */
    public ExecutionResult withFiles(List<OutputFile> written, int omitted) {
        boolean cut = omitted > 0 || written.stream().anyMatch(OutputFile::truncated);
        return new ExecutionResult(status, stdout, stderr, exitCode, executionTime, errorMessage, result,
                new Truncation(truncated.stdout(), truncated.stderr(), truncated.result(), truncated.errorMessage(), cut),
                written, omitted, installing, toolCalls, toolCallsOmitted, sessionNew, sessionRebuilt, sessionEnded);
    }

    /**
     * This result with each file's content left out (path, size and truncated stay), as the answer's text block
     * carries a large result: the contents are in {@code structuredContent} and in the answer's resources.
     */
    public ExecutionResult withoutFileContents() {
        List<OutputFile> listed = files.stream()
                .map(file -> new OutputFile(file.path(), file.size(), null, null, file.truncated())).toList();
        return new ExecutionResult(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated,
                listed, filesOmitted, installing, toolCalls, toolCallsOmitted, sessionNew, sessionRebuilt, sessionEnded);
    }

    /** This result, naming the modules the server has started to install for it. */
    public ExecutionResult withInstalling(List<String> modules) {
        return new ExecutionResult(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated,
                files, filesOmitted, modules, toolCalls, toolCallsOmitted, sessionNew, sessionRebuilt, sessionEnded);
    }

    /** This result with the tool calls the supervisor recorded for it. */
    public ExecutionResult withToolCalls(List<ToolCall> calls, int omitted) {
        return new ExecutionResult(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated,
                files, filesOmitted, installing, calls, omitted, sessionNew, sessionRebuilt, sessionEnded);
    }

    /** This result, saying whether its call started its session (see {@code sessionNew}). */
    public ExecutionResult withSessionNew(boolean started) {
        return new ExecutionResult(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated,
                files, filesOmitted, installing, toolCalls, toolCallsOmitted, started, sessionRebuilt, sessionEnded);
    }

    /** This result of a call that first ran {@code calls} earlier calls of its session again to rebuild it. */
    public ExecutionResult withSessionRebuilt(int calls) {
        return new ExecutionResult(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated,
                files, filesOmitted, installing, toolCalls, toolCallsOmitted, sessionNew, calls, sessionEnded);
    }

    /**
     * This result of a call moved to another worker after running {@code secondsBefore} where it started: its
     * time counts those seconds, and a timeout names the caller's {@code timeout}, not the {@code movedLimit}
     * the moved call had left.
     */
    public ExecutionResult movedAfter(double secondsBefore, Duration movedLimit, Duration timeout) {
        String message = status == Status.TIMEOUT && errorMessage != null
                ? errorMessage.replace(timedOutAfter(movedLimit), timedOutAfter(timeout))
                : errorMessage;
        return new ExecutionResult(status, stdout, stderr, exitCode, executionTime + secondsBefore, message, result,
                truncated, files, filesOmitted, installing, toolCalls, toolCallsOmitted, sessionNew, sessionRebuilt,
                sessionEnded);
    }

    /** How a timeout is told: "Execution timed out after 5 seconds" (2.5 for a limit of 2,500 ms). */
    public static String timedOutAfter(Duration timeout) {
        long millis = timeout.toMillis();
        return "Execution timed out after "
                + (millis % 1000 == 0 ? Long.toString(millis / 1000) : Double.toString(millis / 1000.0)) + " seconds";
    }

    /** A call that never reached Python: bad input, no worker, a lost session. */
    public static ExecutionResult setupError(String message) {
        return new ExecutionResult(Status.SETUP_ERROR, "", "", 1, 0.0, message, null, Truncation.NONE);
    }

    /** A call naming a session that has ended: it ran nothing, and says why. */
    public static ExecutionResult sessionEnded(SessionEnding why, String message) {
        ExecutionResult failed = setupError(message);
        return new ExecutionResult(failed.status, failed.stdout, failed.stderr, failed.exitCode, failed.executionTime,
                failed.errorMessage, null, Truncation.NONE, List.of(), 0, List.of(), List.of(), 0, null, null, why);
    }

    /** A call whose worker went away under it, so nothing it printed could be recovered. */
    public static ExecutionResult lost(Status status, int exitCode, double seconds, String message) {
        return new ExecutionResult(status, "", "", exitCode, seconds, message, null, Truncation.NONE);
    }
}
