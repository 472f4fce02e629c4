package dev.pysandbox.supervisor;

/**
 * What a slot's workers are for. Every call starts on a {@link #GENERAL} worker; a {@link #LONG_CALLS} worker,
 * a JIT worker beside interpreter-only ones, only runs twins of calls that outran the interpreter
 * ({@link LongCalls}), so its compiled code is spent where the JIT pays (BENCHMARKS.md, "Long calls and their
 * twins").
 */
enum WorkerRole {
    GENERAL("worker-"),
    LONG_CALLS("jit-worker-");

    private final String namePrefix;

    WorkerRole(String namePrefix) {
        this.namePrefix = namePrefix;
    }

    /** How its workers' names begin: {@code worker-1.2}, {@code jit-worker-1.1}. */
    String namePrefix() {
        return namePrefix;
    }
}
