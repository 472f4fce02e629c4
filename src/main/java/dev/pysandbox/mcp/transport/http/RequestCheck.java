package dev.pysandbox.mcp.transport.http;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;

import dev.pysandbox.auth.Authenticator;
import dev.pysandbox.auth.Principal;
import dev.pysandbox.auth.Scope;
import dev.pysandbox.mcp.transport.ErrorReply;
import dev.pysandbox.mcp.transport.LineDecoder;

/**
 * The checks a POST to the MCP endpoint passes before it is handled, in the order they run: Host and Origin
 * ({@link OriginCheck}), the bearer token ({@link Authenticator}), {@code MCP-Protocol-Version},
 * {@code Content-Type}, {@code Accept}, the body's size, the body as one JSON-RPC message, and the scope the
 * message needs ({@link #scopes}). On header values and the body's
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
     * Headers that pass: who is calling, what its token lets it do, and whether the answer may be an event stream.
     *
     * @param principal the token's principal, or {@link Principal#ANONYMOUS} with {@code http.auth=none}
     * @param scopes    what the token allows; every scope unless OAuth says otherwise
     */
    record Admitted(Principal principal, Set<Scope> scopes, boolean acceptsEvents) implements HeadVerdict {
        Admitted {
            scopes = Set.copyOf(scopes);
        }
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
    private final Authenticator authenticator;
    private final BearerChallenge challenge;
    private final LineDecoder decoder;
    private final int maxBodyBytes;

    /**
     * @param authenticator who presents the token: {@link Authenticator#ANYONE} for {@code http.auth=none}
     * @param challenge     what a refusal's {@code WWW-Authenticate} says
     * @param maxBodyBytes  {@code http.max-request-bytes}
     */
    RequestCheck(OriginCheck origins, Authenticator authenticator, BearerChallenge challenge, LineDecoder decoder,
            int maxBodyBytes) {
        this.origins = origins;
        this.authenticator = authenticator;
        this.challenge = challenge;
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
        Authenticator.Authenticated caller;
        switch (authenticator.check(head.authorization())) {
            case Authenticator.Refused denied -> {
                // The token itself is never logged: only that one was refused, why, and from where.
                log.info("refused a request from {}: {}", head.remoteAddress(), denied.reason());
                return unauthorized(denied);
            }
            case Authenticator.Authenticated authenticated -> caller = authenticated;
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
        return new Admitted(caller.principal(), caller.scopes(), acceptsEvents);
    }

    /** A request whose token was refused: 401 with the challenge, or 503 while the issuer's keys cannot be read. */
    private Refused unauthorized(Authenticator.Refused refused) {
        return switch (refused.failure()) {
            case NO_TOKEN -> new Refused(401, ErrorReply.of(null, ErrorReply.INVALID_REQUEST,
                    "Unauthorized: send Authorization: Bearer <token>", null),
                    Map.of("WWW-Authenticate", challenge.unauthorized(null, null)));
            case INVALID_TOKEN -> new Refused(401, ErrorReply.of(null, ErrorReply.INVALID_REQUEST,
                    challenge.resource() == null ? "Unauthorized: unknown token"
                            : "Unauthorized: invalid token: " + refused.reason(), null),
                    Map.of("WWW-Authenticate", challenge.unauthorized("invalid_token", refused.reason())));
            case KEYS_UNAVAILABLE -> new Refused(503, ErrorReply.of(null, ErrorReply.INTERNAL_ERROR,
                    "Service Unavailable: " + refused.reason() + "; retry", null), Map.of("Retry-After", "10"));
        };
    }

    /**
     * The scope a message needs that the caller's token lacks, as a 403 {@code insufficient_scope}: every
     * {@code tools/call} of our tools needs {@link Scope#EXECUTE}. Discovery ({@code initialize},
     * {@code tools/list}, {@code ping}) needs only a valid token, so that a client can see what it could ask for.
     */
    Optional<Refused> scopes(McpSchema.JSONRPCMessage message, Admitted caller) {
        if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_TOOLS_CALL.equals(request.method())
                && !caller.scopes().contains(Scope.EXECUTE)) {
            log.info("refused tools/call {} of {}: no scope {}", request.id(), caller.principal(),
                    Scope.EXECUTE.wireName());
            return Optional.of(new Refused(403, ErrorReply.of(request.id(), ErrorReply.INVALID_REQUEST,
                    "Forbidden: calling a tool needs the scope " + Scope.EXECUTE.wireName(), null),
                    Map.of("WWW-Authenticate", challenge.insufficientScope(Set.of(Scope.EXECUTE), caller.scopes()))));
        }
        return Optional.empty();
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
