package dev.pysandbox.supervisor;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.TextDigest;

/**
 * A session's calls, kept so that a session whose worker was lost to someone else's call (or replaced) can be
 * rebuilt on a new worker by running them again, in order, before its next call. A session's state is what its
 * calls made; a call that ran to its end makes the same state again when the code does not depend on chance or
 * the clock. What cannot be made again stops the journal for good, and the session then ends with its worker:
 * <ul>
 * <li>a call that used the operator's tools (code mode): running it again would call them twice;</li>
 * <li>a call stopped at its timeout: it left the state wherever the stop found it;</li>
 * <li>more code, input and files than {@code sessions.rebuild-bytes}, or more run time than
 * {@code sessions.rebuild-seconds}: the rebuild would cost too much.</li>
 * </ul>
 * Calls that never ran (a setup error) are not kept. Not thread-safe: a session's calls run one at a time under
 * its lock, which guards this.
 */
final class SessionJournal {
    /**
     * One call to run again, the status it ended with, which running it again must give too, and a digest of what
     * it printed, which a session moved of its own accord must print again too ({@link #printsAsBefore}).
     */
    record Entry(ExecutionRequest request, Status status, String stdoutDigest) {
        /** Whether a run of this call again printed what it printed the first time. */
        boolean printsAsBefore(String stdout) {
            return stdoutDigest.equals(TextDigest.of(stdout));
        }
    }

    private final long maxBytes;
    private final Duration maxTime;
    private final List<Entry> entries = new ArrayList<>();
    private long bytes;
    private double seconds;
    /** Why this session cannot be rebuilt; null while it can. */
    private String refusal;

    SessionJournal(long maxBytes, Duration maxTime) {
        this.maxBytes = maxBytes;
        this.maxTime = maxTime;
        if (maxBytes == 0) {
            refusal = "sessions.rebuild-bytes is 0";
        }
    }

    /** Records a call that ran in the session and kept its worker. */
    void record(ExecutionRequest request, WorkerRun run) {
        Status status = run.report().status();
        if (refusal != null || status == Status.SETUP_ERROR) {
            return;
        }
        if (run.usedTools()) {
            stop("a call used the operator's tools, which must not be called twice");
        } else if (status == Status.TIMEOUT) {
            stop("a call was stopped at its timeout, leaving the variables where the stop found them");
        } else {
            bytes += size(request);
            seconds += run.report().executionTime();
            if (bytes > maxBytes) {
                stop("its calls' code, input and files exceed sessions.rebuild-bytes (" + maxBytes + ")");
            } else if (seconds > maxTime.toMillis() / 1000.0) {
                stop("its calls ran longer than sessions.rebuild-seconds (" + maxTime.toSeconds() + " s) in all");
            } else {
                entries.add(new Entry(request, status, TextDigest.of(run.report().stdout())));
            }
        }
    }

    private void stop(String why) {
        refusal = why;
        entries.clear();
        bytes = 0;
    }

    /** Why the session cannot be rebuilt, or null if it can. */
    String refusal() {
        return refusal;
    }

    /** The calls to run again, oldest first. */
    List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The bytes kept, for the session's memory figures. */
    long bytes() {
        return bytes;
    }

    private static long size(ExecutionRequest request) {
        long size = request.code().getBytes(StandardCharsets.UTF_8).length
                + request.stdin().getBytes(StandardCharsets.UTF_8).length
                + request.inputs().getBytes(StandardCharsets.UTF_8).length;
        for (byte[] file : request.files().values()) {
            size += file.length;
        }
        return size;
    }
}
