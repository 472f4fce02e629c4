package dev.pysandbox.execution;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a worker reports of one run: only what it measured there. It is what a worker's result line carries
 * ({@link dev.pysandbox.wire.WorkerEvent.Result}), and what the supervisor says in the worker's place when the worker
 * could not report (it died, missed a deadline, or never started the code).
 *
 * <p>It has no field for what only the supervisor knows of a call: its session, the tool calls it made, what the
 * server installs. A worker runs guest code in its own JVM and is not trusted (SECURITY.md, "Worker processes"), so
 * the call's answer ({@link ExecutionResult}) takes those from the supervisor alone, and a field a worker adds to its
 * line is dropped as the line is read. What a report does carry is held to the {@link AnswerBudget} by the
 * supervisor, whatever the worker sent.
 *
 * @param exitCode       0 success, 1 uncaught exception or sandbox violation, -1 timeout, n for {@code sys.exit(n)}
 * @param executionTime  seconds the code ran, measured in the worker
 * @param errorMessage   null on success; otherwise one line a person can act on
 * @param result         the value of the variable {@code result} if the code set one (JSON value or its repr)
 * @param files          the files the call wrote in its working directory; empty for none
 * @param filesOmitted   files the call wrote that {@code files} leaves out (see {@link AnswerBudget})
 * @param missingModules modules the code imported that are not installed, among those the worker was told the server
 *                       installs on request ({@code packages.auto-install}); the supervisor names in the answer's
 *                       {@code installing} those it does install
 * @param images         the figures the code drew, as PNGs (charts); empty for none
 * @param imagesOmitted  figures it drew that {@code images} leaves out (see {@link AnswerBudget})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RunReport(
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
        @JsonProperty("missing_modules") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> missingModules,
        @JsonProperty("images") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ChartImage> images,
        @JsonProperty("images_omitted") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int imagesOmitted) {

    /**
     * What a caller reads when its code hit the worker's heap cap, whether the worker caught the
     * OutOfMemoryError itself or the JVM ended the worker for it (-XX:+ExitOnOutOfMemoryError).
     */
    public static final String MEMORY_LIMIT_MESSAGE = "Memory limit reached: the code needed more memory than a"
            + " sandbox worker may use (setting worker.heap); the worker was replaced.";

    public RunReport {
        stdout = stdout == null ? "" : stdout;
        stderr = stderr == null ? "" : stderr;
        truncated = truncated == null ? Truncation.NONE : truncated;
        files = files == null ? List.of() : List.copyOf(files);
        missingModules = missingModules == null ? List.of() : List.copyOf(missingModules);
        images = images == null ? List.of() : List.copyOf(images);
    }

    /** A report without images. */
    public RunReport(Status status, String stdout, String stderr, int exitCode, double executionTime,
            String errorMessage, Object result, Truncation truncated, List<OutputFile> files, int filesOmitted,
            List<String> missingModules) {
        this(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated, files, filesOmitted,
                missingModules, List.of(), 0);
    }

    /** A report without files out or missing modules. */
    public RunReport(Status status, String stdout, String stderr, int exitCode, double executionTime,
            String errorMessage, Object result, Truncation truncated) {
        this(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated, List.of(), 0, List.of());
    }

    /** This report with the files the call wrote, and how many more it wrote than {@code written} lists. */
    public RunReport withFiles(List<OutputFile> written, int omitted) {
        boolean cut = omitted > 0 || written.stream().anyMatch(OutputFile::truncated);
        return new RunReport(status, stdout, stderr, exitCode, executionTime, errorMessage, result,
                new Truncation(truncated.stdout(), truncated.stderr(), truncated.result(), truncated.errorMessage(),
                        cut), written, omitted, missingModules, images, imagesOmitted);
    }

    /** This report with the figures the call drew, and how many more it drew than {@code drawn} lists. */
    public RunReport withImages(List<ChartImage> drawn, int omitted) {
        return new RunReport(status, stdout, stderr, exitCode, executionTime, errorMessage, result, truncated, files,
                filesOmitted, missingModules, drawn, omitted);
    }

    /**
     * This report of a run started {@code secondsBefore} after its call (a twin on another worker): its time counts
     * those seconds, and a timeout names the caller's {@code timeout}, not the {@code limit} the run had left.
     */
    public RunReport startedAfter(double secondsBefore, Duration limit, Duration timeout) {
        String message = status == Status.TIMEOUT && errorMessage != null
                ? errorMessage.replace(timedOutAfter(limit), timedOutAfter(timeout))
                : errorMessage;
        return new RunReport(status, stdout, stderr, exitCode, executionTime + secondsBefore, message, result,
                truncated, files, filesOmitted, missingModules, images, imagesOmitted);
    }

    /** How a timeout is told: "Execution timed out after 5 seconds" (2.5 for a limit of 2,500 ms). */
    public static String timedOutAfter(Duration timeout) {
        long millis = timeout.toMillis();
        return "Execution timed out after "
                + (millis % 1000 == 0 ? Long.toString(millis / 1000) : Double.toString(millis / 1000.0)) + " seconds";
    }

    /** A call that never reached Python: bad input, no worker, a worker that stopped before the code started. */
    public static RunReport setupError(String message) {
        return new RunReport(Status.SETUP_ERROR, "", "", 1, 0.0, message, null, Truncation.NONE);
    }

    /** A call whose worker went away under it, so nothing it printed could be recovered. */
    public static RunReport lost(Status status, int exitCode, double seconds, String message) {
        return new RunReport(status, "", "", exitCode, seconds, message, null, Truncation.NONE);
    }
}
