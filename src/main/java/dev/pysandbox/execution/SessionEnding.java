package dev.pysandbox.execution;

import com.fasterxml.jackson.annotation.JsonValue;

/** Why a session ended, as its next call and {@code session_info} tell it ({@code session_ended}). */
public enum SessionEnding {
    /** No call came for {@code sessions.idle-timeout-seconds}. */
    EXPIRED("expired"),
    /** Closed to make room: the table, its principal's share or its worker was full. */
    EVICTED("evicted"),
    /** Its own call cost its worker (the memory limit, code that did not stop, a crash, a sandbox refusal). */
    LOST_TO_ITS_OWN_CALL("lost_to_its_own_call"),
    /**
     * Its worker was lost to another call or replaced, and its calls could not be run again to rebuild it (one
     * used the operator's tools or was stopped at its timeout, they were too many, or running them again did not
     * give the same outcome).
     */
    NOT_REBUILT("not_rebuilt");

    private final String wireName;

    SessionEnding(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
