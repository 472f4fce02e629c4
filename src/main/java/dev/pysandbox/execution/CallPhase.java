package dev.pysandbox.execution;

/** Where a call is while the client waits for it; progress notifications say so. */
public enum CallPhase {
    /** Behind an earlier call of the same session, which runs first. */
    WAITING_FOR_SESSION,
    /** Every worker is busy (or still starting); the call waits for one. */
    WAITING_FOR_WORKER,
    /** A worker has the call. */
    RUNNING,
    /**
     * The code has called one of the operator's tools (code mode): from now on the call has done something
     * outside its sandbox, and must never be sent again (remote mode's proxy may not retry it elsewhere).
     */
    CALLED_A_TOOL
}
