package dev.pysandbox.supervisor;

import dev.pysandbox.execution.Notice;

/**
 * Why a worker ended: what the server's metrics count replacements by, and how loudly a client is told. Routine
 * ends ({@code worker.max-calls}, a precaution the worker asked for) are quiet; the rest are warnings.
 */
public enum WorkerEndCause {
    /** It served {@code worker.max-calls} calls. */
    MAX_CALLS("max_calls", Notice.Level.DEBUG),
    /** It asked to be replaced after code that did not stop when interrupted, a refusal or a limit. */
    PRECAUTION("precaution", Notice.Level.INFO),
    /** It did not stop a call at its timeout and was killed. */
    MISSED_TIMEOUT("missed_timeout", Notice.Level.WARNING),
    /** It did not start a call within the setup limit and was killed. */
    SLOW_START("slow_start", Notice.Level.WARNING),
    /** It sent a line longer than the protocol allows and was killed. */
    OVERSIZED_MESSAGE("oversized_message", Notice.Level.WARNING),
    /** It sent a result without a status, which no honest worker does, and was killed. */
    BROKEN_RESULT("broken_result", Notice.Level.WARNING),
    /** It ran out of memory ({@code worker.heap}). */
    OUT_OF_MEMORY("out_of_memory", Notice.Level.WARNING),
    /** It exited on its own. */
    EXITED("exited", Notice.Level.WARNING),
    /** It exited before it was ready. */
    START_FAILED("start_failed", Notice.Level.ERROR);

    private final String label;
    private final Notice.Level level;

    WorkerEndCause(String label, Notice.Level level) {
        this.label = label;
        this.level = level;
    }

    /** The name in metrics: lower case, as Prometheus labels are. */
    public String label() {
        return label;
    }

    Notice.Level level() {
        return level;
    }
}
