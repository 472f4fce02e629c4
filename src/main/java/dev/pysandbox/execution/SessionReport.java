package dev.pysandbox.execution;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What {@code inspect_session} tells about a session, without running its code. Field names are the wire
 * names of its structured result; what does not apply to the session's state is left out.
 *
 * @param sessionId        the id as the caller named it
 * @param state            live, rebuilding (its worker was lost to another call; its next call rebuilds it),
 *                         ended, or unknown (no session of this id, nor one that ended recently)
 * @param ended            for an ended session: why; its next call is told the same
 * @param message          for an ended or rebuilding session: what happened, in words
 * @param ageSeconds       since its first call
 * @param idleSeconds      since its last call; it expires at {@code sessions.idle-timeout-seconds}
 * @param calls            calls that ran in it
 * @param rebuildable      whether a lost worker would leave it rebuilt (its calls can run again)
 * @param notRebuildable   why not, when it is not
 * @param variables        its variables, the largest first: name, type, size_bytes, length for a container or
 *                         string, size_is_partial when the size is a lower bound
 * @param variablesOmitted variables beyond the ones listed
 * @param memory           what it costs: its variables' bytes, the bytes kept to rebuild it, and its worker's
 *                         heap after a full collection and that heap's cap
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionReport(
        @JsonProperty("session_id") String sessionId,
        @JsonProperty("state") State state,
        @JsonProperty("ended") SessionEnding ended,
        @JsonProperty("message") String message,
        @JsonProperty("age_seconds") Double ageSeconds,
        @JsonProperty("idle_seconds") Double idleSeconds,
        @JsonProperty("calls") Integer calls,
        @JsonProperty("rebuildable") Boolean rebuildable,
        @JsonProperty("not_rebuildable_because") String notRebuildable,
        @JsonProperty("variables") List<Map<String, Object>> variables,
        @JsonProperty("variables_omitted") Integer variablesOmitted,
        @JsonProperty("memory") Map<String, Object> memory) {

    /** Where a session stands. */
    public enum State {
        LIVE("live"), REBUILDING("rebuilding"), ENDED("ended"), UNKNOWN("unknown");

        private final String wireName;

        State(String wireName) {
            this.wireName = wireName;
        }

        @JsonValue
        public String wireName() {
            return wireName;
        }
    }

    /** A session that ended: why, and in words. */
    public static SessionReport ended(String sessionId, SessionEnding why, String message) {
        return new SessionReport(sessionId, State.ENDED, why, message, null, null, null, null, null, null, null, null);
    }

    /** An id no session has, nor had lately. */
    public static SessionReport unknown(String sessionId) {
        return new SessionReport(sessionId, State.UNKNOWN, null, "No session has this id, and none ended with it"
                + " lately; a call of execute_code with it starts one.", null, null, null, null, null, null, null, null);
    }
}
