package dev.pysandbox.execution;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer to a call, as {@code execute_code} and {@code run_python} give it. Field names are the wire names of
 * {@code execute_code}'s structured result.
 *
 * <p>A call that reached a worker is answered once, by the supervisor, from the worker's {@link RunReport} and what
 * only the supervisor knows ({@link #from}): the tool calls it recorded, the modules the server installs, the
 * session's fields. A worker's report has no field for those, so a worker cannot tell a client that its session
 * ended or was rebuilt (SECURITY.md, "Worker processes").
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
 * @param sessionRebuilt for a call with a session whose worker was lost to another call (or replaced), or that
 *                      computes and moved to a JIT worker: how many of
 *                      the session's earlier calls were run again on a new worker to rebuild its state before this
 *                      one ran. Null, and left out, when nothing was rebuilt
 * @param sessionEnded  for a call naming a session that has ended: why ({@link SessionEnding}); its message says
 *                      more. Null, and left out, otherwise
 * @param images        the figures the code drew (charts), carried as image blocks; the JSON lists them without their
 *                      bytes ({@link #imageListings}), left out when there are none
 * @param imagesOmitted figures drawn that {@code images} leaves out (see {@link AnswerBudget}); left out when 0
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
        @JsonProperty("session_ended") @JsonInclude(JsonInclude.Include.NON_NULL) SessionEnding sessionEnded,
        @JsonIgnore List<ChartImage> images,
        @JsonProperty("images_omitted") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int imagesOmitted) {

    public ExecutionResult {
        stdout = stdout == null ? "" : stdout;
        stderr = stderr == null ? "" : stderr;
        truncated = truncated == null ? Truncation.NONE : truncated;
        files = files == null ? List.of() : List.copyOf(files);
        installing = installing == null ? List.of() : List.copyOf(installing);
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        images = images == null ? List.of() : List.copyOf(images);
    }

    /** An answer without images. */
    public ExecutionResult(Status status, String stdout, String stderr, int exitCode, double executionTime,
            String errorMessage, Object result, Truncation truncated, List<OutputFile> files, int filesOmitted,
            List<String> installing, List<ToolCall> toolCalls, int toolCallsOmitted, Boolean sessionNew,
            Integer sessionRebuilt, SessionEnding sessionEnded) {
        this(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated, files, filesOmitted,
                installing, toolCalls, toolCallsOmitted, sessionNew, sessionRebuilt, sessionEnded, List.of(), 0);
    }

    /** The images as the JSON lists them: name, type, size, without their bytes (those are in image blocks). */
    @JsonProperty("images")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public List<ChartImage.ImageListing> imageListings() {
        return images.stream().map(ChartImage::listing).toList();
    }

    /**
     * The answer to a call that reached a worker, from the worker's report (held to the answer budget already):
     * what the supervisor knows of the call is added before {@link Builder#build}, and nothing of it comes from
     * the report.
     */
    public static Builder from(RunReport report) {
        return new Builder(report);
    }

    /** A call that never reached Python: bad input, no worker, a lost session. */
    public static ExecutionResult setupError(String message) {
        return ranNothing(message, null);
    }

    /** A call naming a session that has ended: it ran nothing, and says why. */
    public static ExecutionResult sessionEnded(SessionEnding why, String message) {
        return ranNothing(message, why);
    }

    private static ExecutionResult ranNothing(String message, SessionEnding ended) {
        return new ExecutionResult(Status.SETUP_ERROR, "", "", 1, 0.0, message, null, Truncation.NONE, List.of(), 0,
                List.of(), List.of(), 0, null, null, ended);
    }

    /**
     * This answer with each file's content left out (path, size and truncated stay), as the answer's text block
     * carries a large answer: the contents are in {@code structuredContent} and in the answer's resources.
     */
    public ExecutionResult withoutFileContents() {
        List<OutputFile> listed = files.stream()
                .map(file -> new OutputFile(file.path(), file.size(), null, null, file.truncated())).toList();
        return new ExecutionResult(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated,
                listed, filesOmitted, installing, toolCalls, toolCallsOmitted, sessionNew, sessionRebuilt, sessionEnded,
                images, imagesOmitted);
    }

    /**
     * What the supervisor adds to a worker's report to answer the call; each list is held to its part of the
     * {@link AnswerBudget} as the answer is built.
     */
    public static final class Builder {
        private final RunReport report;
        private List<ToolCall> toolCalls = List.of();
        private int toolCallsOmitted;
        private List<String> installing = List.of();
        private Boolean sessionNew;
        private Integer sessionRebuilt;

        private Builder(RunReport report) {
            this.report = report;
        }

        /** The tool calls the supervisor recorded for the call, and how many more it made than they list. */
        public Builder toolCalls(List<ToolCall> calls, int omitted) {
            this.toolCalls = List.copyOf(calls);
            this.toolCallsOmitted = omitted;
            return this;
        }

        /** The modules the server has started to install for the call. */
        public Builder installing(List<String> modules) {
            this.installing = List.copyOf(modules);
            return this;
        }

        /** For a call with a session: whether it started the session (see {@code sessionNew}). */
        public Builder sessionNew(boolean started) {
            this.sessionNew = started;
            return this;
        }

        /** For a call that first ran {@code calls} earlier calls of its session again to rebuild it; 0 for none. */
        public Builder sessionRebuilt(int calls) {
            this.sessionRebuilt = calls == 0 ? null : calls;
            return this;
        }

        public ExecutionResult build() {
            List<ToolCall> listed = AnswerBudget.listed(toolCalls);
            return new ExecutionResult(report.status(), report.stdout(), report.stderr(), report.exitCode(),
                    report.executionTime(), report.errorMessage(), report.result(), report.truncated(), report.files(),
                    report.filesOmitted(), AnswerBudget.listedModules(installing), listed,
                    toolCallsOmitted + toolCalls.size() - listed.size(), sessionNew, sessionRebuilt, null,
                    report.images(), report.imagesOmitted());
        }
    }
}
