package dev.pysandbox.execution;

import com.fasterxml.jackson.annotation.JsonValue;

/** How a call ended, as reported to the client in {@code status}. */
public enum Status {
    /** The code ran to the end (or called {@code sys.exit(0)}). */
    SUCCESS("success"),
    /** The code ran past its time limit and was stopped. */
    TIMEOUT("timeout"),
    /** The code raised, exited non-zero, hit a sandbox rule or a limit, or its worker died. */
    EXECUTION_ERROR("execution_error"),
    /** The sandbox could not run the code at all (bad input, no worker, lost session). */
    SETUP_ERROR("setup_error");

    private final String wireName;

    Status(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
