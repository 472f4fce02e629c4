package dev.pysandbox.wire;

import java.util.Map;

/**
 * A line the supervisor sends to a worker's stdin. One flat record rather than a type hierarchy: the
 * protocol has few messages and a reader can see all of it here.
 *
 * @param type             {@link #EXECUTE}, {@link #VALIDATE}, {@link #CANCEL}, {@link #CLOSE_SESSION} or
 *                         {@link #TOOL_RESULT}
 * @param id               the call this is about (execute, validate, cancel, tool-result)
 * @param code             the code to run or check
 * @param session          the session whose context to use or close; null for a fresh context
 * @param timeoutMillis    the code's own time limit (execute, validate)
 * @param files            files to place in the working directory first, by relative path (execute; base64
 *                         on the wire); null or empty for none
 * @param workingDirectory a host folder to show read-only as the working directory (execute); null for none
 * @param inputs           {@code context.inputs} as JSON object text (execute); null for {@code {}}
 * @param catalog          the tools as the supervisor knows them, JSON text {@code {"allowed":[..],"known":[..]}}
 *                         (validate), for the checks of literal tool names
 * @param seq              which tool request of the call this answers (tool-result)
 * @param reply            the answer's JSON envelope (tool-result)
 */
public record WorkerCommand(String type, long id, String code, String stdin, long timeoutMillis, String session,
        String filename, Map<String, byte[]> files, String workingDirectory, String inputs, String catalog,
        long seq, String reply) {
    public static final String EXECUTE = "execute";
    public static final String VALIDATE = "validate";
    public static final String CANCEL = "cancel";
    public static final String CLOSE_SESSION = "close-session";
    public static final String TOOL_RESULT = "tool-result";

    public WorkerCommand {
        files = files == null ? Map.of() : files;
    }

    public static WorkerCommand execute(long id, String code, String stdin, long timeoutMillis, String session,
            String filename, Map<String, byte[]> files, String workingDirectory, String inputs) {
        return new WorkerCommand(EXECUTE, id, code, stdin, timeoutMillis, session, filename, files, workingDirectory,
                inputs, null, 0, null);
    }

    public static WorkerCommand validate(long id, String code, long timeoutMillis, String catalog) {
        return new WorkerCommand(VALIDATE, id, code, null, timeoutMillis, null, "<string>", null, null, null, catalog,
                0, null);
    }

    public static WorkerCommand cancel(long id) {
        return new WorkerCommand(CANCEL, id, null, null, 0, null, null, null, null, null, null, 0, null);
    }

    public static WorkerCommand closeSession(String session) {
        return new WorkerCommand(CLOSE_SESSION, 0, null, null, 0, session, null, null, null, null, null, 0, null);
    }

    public static WorkerCommand toolResult(long id, long seq, String reply) {
        return new WorkerCommand(TOOL_RESULT, id, null, null, 0, null, null, null, null, null, null, seq, reply);
    }

    public boolean isValidation() {
        return VALIDATE.equals(type);
    }
}
