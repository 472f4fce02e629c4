package dev.pysandbox.mcp.transport.http;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;

import dev.pysandbox.mcp.transport.ErrorReply;
import dev.pysandbox.mcp.transport.LineDecoder;

/**
 * The checks a POST to the MCP endpoint passes before it is handled, in the order they run: Host and Origin
 * ({@link OriginCheck}), the bearer token, {@code MCP-Protocol-Version}, {@code Content-Type},
 * {@code Accept}, the body's size, and the body as one JSON-RPC message. On header values and the body's
 * text, with no servlet types, so that a table of requests can test them; {@link McpServlet} only carries
 * the verdict out. A refusal says what is wrong and never echoes more than a short, printable part of what
 * the client sent.
 */
final class RequestCheck {
    /** The servlet's logger, as before the checks had a class of their own: operators filter on it. */
    private static final Logger log = LoggerFactory.getLogger(McpServlet.class);
    static final String PROTOCOL_HEADER = "MCP-Protocol-Version";
    static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2025_03_26,
            ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);

    /**
     * What the checks read of a request: header values as sent, null when absent.
     *
     * @param contentLength the declared body length; -1 when none was declared
     * @param remoteAddress the client's address, for the log line of a refused token
     */
    record Head(String host, String origin, String authorization, String protocolVersion, String contentType,
            String accept, long contentLength, String remoteAddress) {
    }

    /** The verdict on a request's headers. */
    sealed interface HeadVerdict permits Admitted, Refused {
    }

    /** The verdict on a request's body. */
    sealed interface BodyVerdict permits Message, Refused {
    }

    /**
     * Headers that pass: who is calling, and whether the answer may be an event stream.
     *
     * @param principal the token's principal, or {@link HttpCaller#ANONYMOUS} with {@code http.auth=none}
     */
    record Admitted(String principal, boolean acceptsEvents) implements HeadVerdict {
    }

    /** A body that is one JSON-RPC message. */
    record Message(McpSchema.JSONRPCMessage message) implements BodyVerdict {
    }

    /**
     * A refused request: its HTTP status, the JSON-RPC error of its body, and the headers the answer carries
     * ({@code WWW-Authenticate} for a token, {@code Connection: close} for a body left unread).
     */
    record Refused(int status, ErrorReply reply, Map<String, String> headers) implements HeadVerdict, BodyVerdict {
        Refused {
            headers = Map.copyOf(headers);
        }

        static Refused of(int status, String message) {
            return new Refused(status, ErrorReply.of(null, ErrorReply.INVALID_REQUEST, message, null), Map.of());
        }
    }

    private final OriginCheck origins;
    private final BearerTokens tokens;
    private final LineDecoder decoder;
    private final int maxBodyBytes;

    /**
     * @param tokens       null for {@code http.auth=none}
     * @param maxBodyBytes {@code http.max-request-bytes}
     */
    RequestCheck(OriginCheck origins, BearerTokens tokens, LineDecoder decoder, int maxBodyBytes) {
        this.origins = origins;
        this.tokens = tokens;
        this.decoder = decoder;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** The most bytes of body a request may send; reading stops past it, with {@link #tooLarge()}. */
    int maxBodyBytes() {
        return maxBodyBytes;
    }

    /** The headers' verdict: the first check that fails, or who calls and how the answer may be sent. */
    HeadVerdict head(Head head) {
        int refused = origins.check(head.host(), head.origin());
        if (refused != OriginCheck.OK) {
            return Refused.of(refused, refused == 421 ? "Misdirected Request: Host not allowed"
                    : "Forbidden: Origin not allowed");
        }
        Optional<String> principal = Optional.of(HttpCaller.ANONYMOUS);
        if (tokens != null) {
            String header = head.authorization();
            String token = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                    ? header.substring(7).strip() : null;
            principal = token == null || token.isEmpty() ? Optional.empty() : tokens.principalFor(token);
            if (principal.isEmpty()) {
                // The token itself is never logged: only that one was refused, and from where.
                log.info("refused a request from {}: {}", head.remoteAddress(), token == null ? "no bearer token"
                        : "unknown token");
                return new Refused(401, ErrorReply.of(null, ErrorReply.INVALID_REQUEST, token == null
                        ? "Unauthorized: send Authorization: Bearer <token>" : "Unauthorized: unknown token", null),
                        Map.of("WWW-Authenticate", token == null ? "Bearer realm=\"python-sandbox-mcp\""
                                : "Bearer realm=\"python-sandbox-mcp\", error=\"invalid_token\""));
            }
        }
        String version = head.protocolVersion();
        if (version != null && !PROTOCOL_VERSIONS.contains(version.strip())) {
            return Refused.of(400, "Bad Request: unsupported " + PROTOCOL_HEADER + " '" + printable(version)
                    + "'; supported: " + PROTOCOL_VERSIONS);
        }
        String contentType = head.contentType();
        if (contentType != null && !contentType.toLowerCase().startsWith("application/json")) {
            return Refused.of(415, "Unsupported Media Type: send the JSON-RPC message as application/json");
        }
        String accept = head.accept();
        boolean acceptsEvents = accept != null && accept.contains("text/event-stream");
        if (accept != null && !acceptsEvents && !accept.contains("application/json") && !accept.contains("*/*")) {
            return Refused.of(406, "Not Acceptable: the answer is application/json or text/event-stream");
        }
        if (head.contentLength() > maxBodyBytes) {
            return tooLarge();
        }
        return new Admitted(principal.get(), acceptsEvents);
    }

    /** A body past {@link #maxBodyBytes()}: the rest is not read, so the connection cannot be used again. */
    Refused tooLarge() {
        return new Refused(413, ErrorReply.of(null, ErrorReply.INVALID_REQUEST, "Request body larger than "
                + maxBodyBytes + " bytes (setting http.max-request-bytes)", null), Map.of("Connection", "close"));
    }

    /** The body's verdict: one JSON-RPC message, or the error it deserves. */
    BodyVerdict body(String body) {
        return switch (decoder.decode(body)) {
            case LineDecoder.Blank blank -> new Refused(400,
                    ErrorReply.of(null, ErrorReply.INVALID_REQUEST, "Invalid Request", "empty body"), Map.of());
            case LineDecoder.Rejected rejected -> new Refused(400, rejected.reply(), Map.of());
            case LineDecoder.Accepted accepted -> new Message(accepted.message());
        };
    }

    private static String printable(String text) {
        String cut = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
