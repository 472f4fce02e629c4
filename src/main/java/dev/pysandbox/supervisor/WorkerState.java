package dev.pysandbox.supervisor;

/** What a worker slot is doing, as the server's metrics count them. */
public enum WorkerState {
    /** Its worker is starting, or being replaced. */
    STARTING("starting"),
    /** Its worker is ready and waiting for a call. */
    IDLE("idle"),
    /** Its worker is serving a call (or holds a session's call that is being rebuilt). */
    BUSY("busy");

    private final String label;

    WorkerState(String label) {
        this.label = label;
    }

    /** The name in metrics. */
    public String label() {
        return label;
    }
}
