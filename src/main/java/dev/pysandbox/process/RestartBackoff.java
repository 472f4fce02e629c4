package dev.pysandbox.process;

import java.time.Duration;

/**
 * How long to wait before starting a child process again after it failed to start: a second after the first
 * failure, twice as long after each further one, never more than a cap, and no wait again once a start
 * succeeds. A child that cannot start (a broken command, a missing runtime) is so retried without becoming a
 * fork loop. Worker slots and downstream servers pace their restarts with it.
 *
 * <p>Not thread-safe: its owner calls it under its own lock.
 */
public final class RestartBackoff {
    /** The wait after the first failure in a row. */
    public static final Duration FIRST = Duration.ofSeconds(1);

    private final long maxMillis;
    private long delayMillis;

    /** @param max the longest wait, however many starts failed in a row */
    public RestartBackoff(Duration max) {
        if (max.compareTo(FIRST) < 0) {
            throw new IllegalArgumentException("the cap is below the first wait: " + max);
        }
        this.maxMillis = max.toMillis();
    }

    /** A start failed: returns how long to wait before the next one. */
    public Duration failed() {
        delayMillis = Math.min(maxMillis, Math.max(FIRST.toMillis(), delayMillis * 2));
        return Duration.ofMillis(delayMillis);
    }

    /** A start succeeded: the next failure waits {@link #FIRST} again. */
    public void succeeded() {
        delayMillis = 0;
    }

    /** Whether the last start failed, i.e. no start has succeeded since the last failure. */
    public boolean failing() {
        return delayMillis > 0;
    }
}
