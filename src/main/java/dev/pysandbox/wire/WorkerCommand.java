package dev.pysandbox.wire;

/**
 * A line the supervisor sends to a worker's stdin. One flat record rather than a type hierarchy: the
 * protocol has three messages and a reader can see all of it here.
 *
 * @param type          {@link #EXECUTE}, {@link #CANCEL} or {@link #CLOSE_SESSION}
 * @param id            the call this is about (execute, cancel)
 * @param session       the session whose context to use or close; null for a fresh context
 * @param timeoutMillis the code's own time limit (execute)
 */
public record WorkerCommand(String type, long id, String code, String stdin, long timeoutMillis, String session,
        String filename) {
    public static final String EXECUTE = "execute";
    public static final String CANCEL = "cancel";
    public static final String CLOSE_SESSION = "close-session";

    public static WorkerCommand execute(long id, String code, String stdin, long timeoutMillis, String session,
            String filename) {
        return new WorkerCommand(EXECUTE, id, code, stdin, timeoutMillis, session, filename);
    }

    public static WorkerCommand cancel(long id) {
        return new WorkerCommand(CANCEL, id, null, null, 0, null, null);
    }

    public static WorkerCommand closeSession(String session) {
        return new WorkerCommand(CLOSE_SESSION, 0, null, null, 0, session, null);
    }
}
