package dev.pysandbox.mcp.transport;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A JSON-RPC error response written by a transport itself.
 *
 * <p>The SDK's {@code JSONRPCResponse} refuses a null id, but JSON-RPC requires exactly that
 * ({@code "id": null}) when the id of a bad message cannot be read, so we serialize our own.
 */
public record ErrorReply(String jsonrpc, @JsonInclude(JsonInclude.Include.ALWAYS) Object id, Body error) {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int INTERNAL_ERROR = -32603;

    public record Body(int code, String message, @JsonInclude(JsonInclude.Include.NON_NULL) String data) {
    }

    public static ErrorReply of(Object id, int code, String message, String data) {
        return new ErrorReply("2.0", id, new Body(code, message, data));
    }
}
