package dev.pysandbox.mcp.transport;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * Turns one input line (stdio) or request body (HTTP) into a JSON-RPC message or into the error reply it
 * deserves.
 *
 * <p>The checks before {@link McpSchema#deserializeJsonRpcMessage} exist to give a precise
 * error code and to echo the id; the SDK call stays last so that anything it refuses is
 * refused here too instead of failing later inside the session.
 */
public final class LineDecoder {

    public sealed interface Outcome permits Blank, Accepted, Rejected {
    }

    /** Whitespace only: ignored, like most stdio peers do. */
    public record Blank() implements Outcome {
    }

    public record Accepted(McpSchema.JSONRPCMessage message) implements Outcome {
    }

    public record Rejected(ErrorReply reply) implements Outcome {
    }

    private static final Blank BLANK = new Blank();
    private static final int MAX_DETAIL_CHARS = 200;

    private final McpJsonMapper json;

    public LineDecoder(McpJsonMapper json) {
        this.json = json;
    }

    public Outcome decode(String line) {
        if (line.isBlank()) {
            return BLANK;
        }
        Object tree;
        try {
            tree = json.readValue(line, Object.class);
        } catch (Exception e) {
            return reject(null, ErrorReply.PARSE_ERROR, "Parse error", detail(e));
        }
        if (tree instanceof List<?>) {
            return reject(null, ErrorReply.INVALID_REQUEST, "Invalid Request (batch not supported)", null);
        }
        if (!(tree instanceof Map<?, ?> message)) {
            return invalid(null, "message must be a JSON object");
        }
        Object id = echoableId(message.get("id"));
        if (!McpSchema.JSONRPC_VERSION.equals(message.get("jsonrpc"))) {
            return invalid(id, "\"jsonrpc\" must be \"2.0\"");
        }
        if (message.containsKey("method")) {
            if (!(message.get("method") instanceof String)) {
                return invalid(id, "\"method\" must be a string");
            }
            if (message.containsKey("id") && !isValidId(message.get("id"))) {
                return invalid(id, "\"id\" must be a string or an integer");
            }
        } else if (!message.containsKey("result") && !message.containsKey("error")) {
            return invalid(id, "not a request, notification or response");
        }
        try {
            return new Accepted(McpSchema.deserializeJsonRpcMessage(json, line));
        } catch (Exception e) {
            return invalid(id, detail(e));
        }
    }

    /** The SDK only accepts these id types; anything else would blow up when it builds the response. */
    static boolean isValidId(Object id) {
        return id instanceof String || id instanceof Integer || id instanceof Long;
    }

    private static Object echoableId(Object id) {
        return id instanceof String || id instanceof Number ? id : null;
    }

    private static Rejected invalid(Object id, String detail) {
        return reject(id, ErrorReply.INVALID_REQUEST, "Invalid Request", detail);
    }

    private static Rejected reject(Object id, int code, String message, String detail) {
        return new Rejected(ErrorReply.of(id, code, message, detail));
    }

    /** The innermost message, first line only: Jackson appends source excerpts we do not want to echo. */
    private static String detail(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        int eol = text.indexOf('\n');
        if (eol >= 0) {
            text = text.substring(0, eol);
        }
        return text.length() > MAX_DETAIL_CHARS ? text.substring(0, MAX_DETAIL_CHARS) + "..." : text;
    }
}
