package dev.pysandbox.config;

import java.time.Duration;

/**
 * Sessions ({@code execute_code} with {@code session_id}, {@code sessions.*}): how many are kept, where, for how
 * long, and what may be run again to rebuild one whose worker was lost to another call.
 *
 * @param max          sessions kept at once ({@code sessions.max})
 * @param perPrincipal sessions one principal keeps ({@code sessions.max-per-principal})
 * @param perWorker    sessions one worker holds ({@code sessions.per-worker})
 * @param idleTimeout  how long a session lives without a call ({@code sessions.idle-timeout-seconds})
 * @param rebuildBytes the most code, input and files of a session's calls kept to run them again
 *                     ({@code sessions.rebuild-bytes}); 0 keeps none, and a session then ends with its worker
 * @param rebuildTime  the most run time of a session's calls that is run again ({@code sessions.rebuild-seconds})
 */
public record SessionSettings(int max, int perPrincipal, int perWorker, Duration idleTimeout, long rebuildBytes,
        Duration rebuildTime) {
    /** Default rebuild limits, for a sandbox built in a test. */
    public static final long DEFAULT_REBUILD_BYTES = 1024 * 1024;
    public static final Duration DEFAULT_REBUILD_TIME = Duration.ofSeconds(60);

    /** Limits in number and time, with the default rebuild limits. */
    public SessionSettings(int max, int perPrincipal, int perWorker, Duration idleTimeout) {
        this(max, perPrincipal, perWorker, idleTimeout, DEFAULT_REBUILD_BYTES, DEFAULT_REBUILD_TIME);
    }
}
