package dev.pysandbox.execution;

/** Where a call is while the client waits for it; progress notifications say so. */
public enum CallPhase {
    /** Behind an earlier call of the same session, which runs first. */
    WAITING_FOR_SESSION,
    /** Every worker is busy (or still starting); the call waits for one. */
    WAITING_FOR_WORKER,
    /** A worker has the call. */
    RUNNING
}
