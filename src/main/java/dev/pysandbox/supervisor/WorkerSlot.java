package dev.pysandbox.supervisor;

import java.time.Duration;

import dev.pysandbox.process.RestartBackoff;

/**
 * One place in the pool: the worker in it now, how many workers it has had, and how it is doing at starting
 * them. Guarded by the pool's lock.
 */
final class WorkerSlot {
    /** The longest a slot whose worker cannot start waits before the next try. */
    private static final Duration MAX_RESTART_DELAY = Duration.ofSeconds(30);

    /** Counted from 0 among the slots of its role, named from 1. */
    final int index;
    final WorkerRole role;
    /** The slot's worker; null between one that is gone and its replacement. */
    WorkerProcess worker;
    /** Paces the restarts of a slot whose workers exit before they are ready. */
    final RestartBackoff restarts = new RestartBackoff(MAX_RESTART_DELAY);
    /** Whether a worker here has been ready: its later replacements are routine, not a failure to start. */
    boolean upOnce;
    private int generation;

    WorkerSlot(int index, WorkerRole role) {
        this.index = index;
        this.role = role;
    }

    /** The name of the slot's next worker: role, slot number, then generation ({@code worker-1.2}). */
    String nextName() {
        return role.namePrefix() + (index + 1) + "." + (++generation);
    }

    /**
     * Whether the slot serves calls: its worker is up, or it is replacing one that was up and has not since
     * failed to start (see {@link WorkerPool#serving()}).
     */
    boolean serving() {
        return worker != null && worker.isReady() || upOnce && !restarts.failing();
    }
}
