package dev.pysandbox.wire;

import java.util.Map;

/**
 * A line the supervisor sends to a worker's stdin. One flat record rather than a type hierarchy: the
 * protocol has three messages and a reader can see all of it here.
 *
 * @param type             {@link #EXECUTE}, {@link #CANCEL} or {@link #CLOSE_SESSION}
 * @param id               the call this is about (execute, cancel)
 * @param session          the session whose context to use or close; null for a fresh context
 * @param timeoutMillis    the code's own time limit (execute)
 * @param files            files to place in the working directory first, by relative path (execute; base64
 *                         on the wire); null or empty for none
 * @param workingDirectory a host folder to show read-only as the working directory (execute); null for none
 */
public record WorkerCommand(String type, long id, String code, String stdin, long timeoutMillis, String session,
        String filename, Map<String, byte[]> files, String workingDirectory) {
    public static final String EXECUTE = "execute";
    public static final String CANCEL = "cancel";
    public static final String CLOSE_SESSION = "close-session";

    public WorkerCommand {
        files = files == null ? Map.of() : files;
    }

    public static WorkerCommand execute(long id, String code, String stdin, long timeoutMillis, String session,
            String filename, Map<String, byte[]> files, String workingDirectory) {
        return new WorkerCommand(EXECUTE, id, code, stdin, timeoutMillis, session, filename, files, workingDirectory);
    }

    public static WorkerCommand cancel(long id) {
        return new WorkerCommand(CANCEL, id, null, null, 0, null, null, null, null);
    }

    public static WorkerCommand closeSession(String session) {
        return new WorkerCommand(CLOSE_SESSION, 0, null, null, 0, session, null, null, null);
    }
}
