package dev.pysandbox.bridge;

/**
 * Why a tool request failed, as guest code sees it: {@code ToolError(kind, tool, message)}. Messages are
 * written for the code's author; they never carry Java class names or a downstream server's stderr.
 */
final class ToolFailure extends Exception {
    static final String NOT_CONFIGURED = "not_configured";
    static final String NOT_ALLOWED = "not_allowed";
    static final String INVALID_PARAMS = "invalid_params";
    static final String LIMIT_EXCEEDED = "limit_exceeded";
    static final String TIMEOUT = "timeout";
    static final String SERVER_UNAVAILABLE = "server_unavailable";
    static final String TOOL_ERROR = "tool_error";
    static final String PROTOCOL_ERROR = "protocol_error";
    static final String RESULT_TOO_LARGE = "result_too_large";

    private final String kind;
    /** The tool's own answer, for {@link #TOOL_ERROR}; else null. */
    private final transient Object result;

    ToolFailure(String kind, String message) {
        this(kind, message, null);
    }

    ToolFailure(String kind, String message, Object result) {
        super(message, null, false, false);
        this.kind = kind;
        this.result = result;
    }

    String kind() {
        return kind;
    }

    Object result() {
        return result;
    }
}
