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
 * @param picked    whether {@code worker.jit-workers=auto} chose {@code workers} for this machine, rather than the
 *                  operator: then a build without the JIT runtime (the desktop bundle has none) runs without
 *                  JIT workers quietly, where a number asked for is warned about
 */
public record LongCallSettings(int workers, Duration twinAfter, boolean picked) {
    /** No JIT workers: every call stays where it started. */
    public static final LongCallSettings NONE = new LongCallSettings(0, Duration.ofSeconds(2), false);

    /**
     * What {@code worker.jit-workers=auto} picks: one JIT worker per four cores from four cores on, as many as fit in
     * the half of the machine's memory the general workers leave; none below four cores. On two cores a twin gained
     * nothing measurable: the Graal compiler of GraalPy 25.0 runs as Java code that HotSpot must compile first, and
     * the one core a twin has, shared by that compiling, its own compiler thread and its run, did not finish a
     * 3-5 s search before the interpreter, nor a 9 s one within 30 s; while the JIT worker held 1.3 GB and warmed
     * itself for three minutes of a core after each start (BENCHMARKS.md, "Long calls and their twins"). From four
     * cores on those three get a core each; that is reasoned, not measured (the machines here have two). Each
     * JIT worker costs its memory whether or not it is used ({@code jitWorkerBytes}).
     *
     * @param cores          the cores the server may use
     * @param memoryBytes    the machine's memory, or 0 or less when unknown (then memory does not limit)
     * @param generalBytes   what the general workers take
     * @param jitWorkerBytes what one JIT worker takes
     */
    public static int autoWorkers(int cores, long memoryBytes, long generalBytes, long jitWorkerBytes) {
        if (cores < 4) {
            return 0;
        }
        int byCores = cores / 4;
        if (memoryBytes <= 0) {
            return byCores;
        }
        long room = memoryBytes / 2 - generalBytes;
        return (int) Math.clamp(room / jitWorkerBytes, 0, byCores);
    }
}
