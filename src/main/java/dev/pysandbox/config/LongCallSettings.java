package dev.pysandbox.config;

import java.time.Duration;

/**
 * Calls that outrun the interpreter ({@code worker.jit-workers}, {@code worker.jit-move-after-millis}): JIT
 * workers started beside the interpreter-only ones, and how long a call without a session or tool calls runs
 * on an interpreter-only worker before it starts again on an idle JIT worker, its output so far discarded,
 * within the time its timeout leaves (BENCHMARKS.md, "Long calls move to a JIT worker").
 *
 * @param workers   JIT workers for long calls; 0 for none (and always 0 when every worker has the JIT)
 * @param moveAfter how long a call runs before it is moved
 */
public record LongCallSettings(int workers, Duration moveAfter) {
    /** No JIT workers: every call stays where it started. */
    public static final LongCallSettings NONE = new LongCallSettings(0, Duration.ofSeconds(2));
}
