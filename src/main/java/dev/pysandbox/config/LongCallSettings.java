package dev.pysandbox.config;

import java.time.Duration;

/**
 * Calls that outrun the interpreter ({@code worker.jit-workers}, {@code worker.jit-twin-after-millis}): JIT
 * workers started beside the interpreter-only ones, and how long a call without a session runs on an
 * interpreter-only worker before a twin of it starts on an idle JIT worker, within the time its timeout leaves;
 * the first of the two to finish answers (BENCHMARKS.md, "Long calls and their twins").
 *
 * @param workers   JIT workers for long calls; 0 for none (and always 0 when every worker has the JIT)
 * @param twinAfter how long a call runs alone before its twin starts
 */
public record LongCallSettings(int workers, Duration twinAfter) {
    /** No JIT workers: every call stays where it started. */
    public static final LongCallSettings NONE = new LongCallSettings(0, Duration.ofSeconds(2));
}
