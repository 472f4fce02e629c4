package dev.pysandbox.mcp.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;

import dev.pysandbox.auth.Authenticator;
import dev.pysandbox.auth.BearerTokens;
import dev.pysandbox.auth.Principal;
import dev.pysandbox.auth.Scope;
import dev.pysandbox.execution.TextDigest;
import dev.pysandbox.mcp.transport.ErrorReply;
import dev.pysandbox.mcp.transport.LineDecoder;
import dev.pysandbox.mcp.transport.http.RequestCheck.Admitted;
import dev.pysandbox.mcp.transport.http.RequestCheck.Head;
import dev.pysandbox.mcp.transport.http.RequestCheck.Message;
import dev.pysandbox.mcp.transport.http.RequestCheck.Refused;

/**
 * The checks a POST passes before it is handled, on header values and body text: a table of good requests
 * and one of hostile ones. HttpTransportIT sends such requests to the real server over a socket.
 */
class RequestCheckTest {
    private static final int MAX_BODY = 1_000;
    private static final String REALM = "Bearer realm=\"python-sandbox-mcp\"";

    private static final RequestCheck CHECK = check(tokens());

    private static BearerTokens tokens() {
        try {
            return BearerTokens.parse(List.of("alice:" + HexFormat.of().formatHex(TextDigest.sha256("a-secret"))), "t");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static RequestCheck check(Authenticator authenticator) {
        return check(authenticator, BearerChallenge.REALM);
    }

    private static RequestCheck check(Authenticator authenticator, BearerChallenge challenge) {
        return new RequestCheck(new OriginCheck(List.of("localhost:*", "127.0.0.1:*"), List.of("http://localhost:*")),
                authenticator, challenge, new LineDecoder(McpJsonDefaults.getMapper()), MAX_BODY);
    }

    /** A good request's headers, with some replaced ({@code name, value} pairs; a null value leaves one out). */
    private static Head head(String... changes) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "127.0.0.1:8080");
        headers.put("Authorization", "Bearer a-secret");
        headers.put(RequestCheck.PROTOCOL_HEADER, ProtocolVersions.MCP_2025_06_18);
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "application/json, text/event-stream");
        headers.put("Content-Length", "60");
        for (int i = 0; i < changes.length; i += 2) {
            headers.put(changes[i], changes[i + 1]);
        }
        String length = headers.get("Content-Length");
        return new Head(headers.get("Host"), headers.get("Origin"), headers.get("Authorization"),
                headers.get(RequestCheck.PROTOCOL_HEADER), headers.get("Content-Type"), headers.get("Accept"),
                length == null ? -1 : Long.parseLong(length), "192.0.2.7");
    }

    /** A request that passes, and who it is from and whether its answer may be an event stream. */
    private record Good(String label, Head head, Admitted admitted) {
    }

    /** A request that is refused, with its status, a part of the error's message, and the headers it gets. */
    private record Hostile(String label, Head head, int status, String message, Map<String, String> headers) {
    }

    private static final Admitted ALICE_EVENTS = new Admitted(Principal.named("alice"), Scope.all(), true);
    private static final Admitted ALICE_JSON = new Admitted(Principal.named("alice"), Scope.all(), false);

    private static final List<Good> GOOD = List.of(
            new Good("every header as a client sends it", head(), ALICE_EVENTS),
            new Good("no Accept", head("Accept", null), ALICE_JSON),
            new Good("Accept */*", head("Accept", "*/*"), ALICE_JSON),
            new Good("Accept JSON only", head("Accept", "application/json"), ALICE_JSON),
            new Good("no protocol version (an older client)", head(RequestCheck.PROTOCOL_HEADER, null), ALICE_EVENTS),
            new Good("the oldest version", head(RequestCheck.PROTOCOL_HEADER, ProtocolVersions.MCP_2025_03_26), ALICE_EVENTS),
            new Good("the version padded", head(RequestCheck.PROTOCOL_HEADER, " " + ProtocolVersions.MCP_2025_11_25 + " "),
                    ALICE_EVENTS),
            new Good("JSON with a charset", head("Content-Type", "application/json; charset=utf-8"), ALICE_EVENTS),
            new Good("JSON in capitals", head("Content-Type", "Application/JSON"), ALICE_EVENTS),
            new Good("no Content-Type", head("Content-Type", null), ALICE_EVENTS),
            new Good("an allowed Origin", head("Origin", "http://localhost:3000"), ALICE_EVENTS),
            new Good("the scheme in lower case", head("Authorization", "bearer a-secret"), ALICE_EVENTS),
            new Good("no declared length (chunked)", head("Content-Length", null), ALICE_EVENTS),
            new Good("a body of the limit exactly", head("Content-Length", Integer.toString(MAX_BODY)), ALICE_EVENTS));

    private static final List<Hostile> HOSTILE = List.of(
            new Hostile("DNS rebinding: a foreign Host", head("Host", "evil.example.com"), 421,
                    "Misdirected Request: Host not allowed", Map.of()),
            new Hostile("no Host", head("Host", null), 421, "Host not allowed", Map.of()),
            new Hostile("a page of another site", head("Origin", "http://evil.example.com"), 403,
                    "Forbidden: Origin not allowed", Map.of()),
            new Hostile("a foreign Host and no token: the Host is checked first",
                    head("Host", "evil.example.com", "Authorization", null), 421, "Host not allowed", Map.of()),
            new Hostile("no token", head("Authorization", null), 401,
                    "Unauthorized: send Authorization: Bearer <token>", Map.of("WWW-Authenticate", REALM)),
            new Hostile("another scheme", head("Authorization", "Basic YWxpY2U6YS1zZWNyZXQ="), 401,
                    "send Authorization: Bearer", Map.of("WWW-Authenticate", REALM)),
            new Hostile("a guessed token", head("Authorization", "Bearer a-secreT"), 401, "Unauthorized: unknown token",
                    Map.of("WWW-Authenticate", REALM + ", error=\"invalid_token\"")),
            new Hostile("an empty token", head("Authorization", "Bearer   "), 401, "unknown token",
                    Map.of("WWW-Authenticate", REALM + ", error=\"invalid_token\"")),
            new Hostile("no token and a bad version: nothing is said about versions to a stranger",
                    head("Authorization", null, RequestCheck.PROTOCOL_HEADER, "1999-01-01"), 401, "Unauthorized",
                    Map.of("WWW-Authenticate", REALM)),
            new Hostile("an unknown protocol version", head(RequestCheck.PROTOCOL_HEADER, "1999-01-01"), 400,
                    "Bad Request: unsupported MCP-Protocol-Version '1999-01-01'; supported: ["
                            + ProtocolVersions.MCP_2025_03_26 + ", " + ProtocolVersions.MCP_2025_06_18 + ", "
                            + ProtocolVersions.MCP_2025_11_25 + "]", Map.of()),
            new Hostile("a version carrying control characters and a long tail",
                    head(RequestCheck.PROTOCOL_HEADER, "2025\r\nX-Injected: 1\u0000" + "a".repeat(10_000)), 400,
                    "'2025??X-Injected: 1?" + "a".repeat(20) + "...'", Map.of()),
            new Hostile("a form post", head("Content-Type", "application/x-www-form-urlencoded"), 415,
                    "Unsupported Media Type: send the JSON-RPC message as application/json", Map.of()),
            new Hostile("text that only mentions JSON", head("Content-Type", "text/plain; x=application/json"), 415,
                    "Unsupported Media Type", Map.of()),
            new Hostile("an Accept that takes neither answer", head("Accept", "text/html"), 406,
                    "Not Acceptable: the answer is application/json or text/event-stream", Map.of()),
            new Hostile("a declared body past the limit", head("Content-Length", Integer.toString(MAX_BODY + 1)), 413,
                    "Request body larger than 1000 bytes (setting http.max-request-bytes)", Map.of("Connection", "close")),
            new Hostile("a declared body of 2^62 bytes", head("Content-Length", Long.toString(1L << 62)), 413,
                    "Request body larger than", Map.of("Connection", "close")));

    @Test
    void goodRequestsPassWithTheirPrincipalAndAnswerForm() {
        for (Good good : GOOD) {
            assertEquals(good.admitted(), CHECK.head(good.head()), good.label());
        }
    }

    @Test
    void attackHostileRequestsAreRefusedWithTheirStatusAMessageAndTheRightHeaders() {
        for (Hostile hostile : HOSTILE) {
            Refused refused = assertInstanceOf(Refused.class, CHECK.head(hostile.head()), hostile.label());
            assertEquals(hostile.status(), refused.status(), hostile.label());
            assertEquals(ErrorReply.INVALID_REQUEST, refused.reply().error().code(), hostile.label());
            assertEquals(null, refused.reply().id(), hostile.label());
            assertTrue(refused.reply().error().message().contains(hostile.message()),
                    hostile.label() + ": " + refused.reply().error().message());
            assertEquals(hostile.headers(), refused.headers(), hostile.label());
        }
    }

    @Test
    void attackAnEchoedVersionIsShortAndPrintable() {
        Refused refused = (Refused) CHECK.head(head(RequestCheck.PROTOCOL_HEADER, "\u001b[2J" + "\u00e9".repeat(5_000)));
        String message = refused.reply().error().message();
        assertTrue(message.length() < 200, message);
        assertTrue(message.chars().allMatch(c -> c >= 0x20 && c <= 0x7e), message);
    }

    @Test
    void withoutTokensEveryCallerIsAnonymousButTheOtherChecksStillRun() {
        RequestCheck open = check(Authenticator.ANYONE);
        Admitted anonymous = new Admitted(Principal.ANONYMOUS, Scope.all(), true);
        assertEquals(anonymous, open.head(head("Authorization", null)));
        assertEquals(anonymous, open.head(head("Authorization", "Bearer anything")));
        assertEquals(421, ((Refused) open.head(head("Host", "evil.example.com"))).status());
        assertEquals(415, ((Refused) open.head(head("Content-Type", "text/plain"))).status());
    }

    /** An OAuth resource server's challenges: the metadata's address and the scopes, the reason in the 401. */
    @Test
    void asAnOAuthResourceServerA401PointsAtTheMetadataAndSaysWhy() {
        BearerChallenge oauth = new BearerChallenge(new ProtectedResource(URI.create("https://sandbox.example.com/mcp"),
                URI.create("https://idp.example.com/realms/agents")));
        String metadata = "Bearer resource_metadata=\"https://sandbox.example.com/.well-known/oauth-protected-resource/mcp\","
                + " scope=\"sandbox:execute sandbox:tools\"";
        Authenticator expired = authorization -> authorization == null
                ? new Authenticator.Refused(Authenticator.Failure.NO_TOKEN, "no bearer token")
                : new Authenticator.Refused(Authenticator.Failure.INVALID_TOKEN, "Expired JWT \"quoted\"");
        Refused none = (Refused) check(expired, oauth).head(head("Authorization", null));
        assertEquals(401, none.status());
        assertEquals(Map.of("WWW-Authenticate", metadata), none.headers());
        Refused invalid = (Refused) check(expired, oauth).head(head());
        assertEquals(401, invalid.status());
        assertEquals(Map.of("WWW-Authenticate", metadata + ", error=\"invalid_token\","
                + " error_description=\"Expired JWT 'quoted'\""), invalid.headers());
        assertTrue(invalid.reply().error().message().contains("Expired JWT"), invalid.reply().error().message());
    }

    @Test
    void whileTheIssuersKeysCannotBeReadRequestsGet503AndRetryAfter() {
        Refused refused = (Refused) check(authorization -> new Authenticator.Refused(
                Authenticator.Failure.KEYS_UNAVAILABLE, "the authorization server's keys could not be read")).head(head());
        assertEquals(503, refused.status());
        assertEquals(Map.of("Retry-After", "10"), refused.headers());
    }

    @Test
    void aToolCallNeedsTheExecuteScopeAndDiscoveryNeedsNone() {
        BearerChallenge oauth = new BearerChallenge(new ProtectedResource(URI.create("https://sandbox.example.com/mcp"),
                URI.create("https://idp.example.com")));
        RequestCheck check = check(authorization -> new Authenticator.Authenticated(
                new Principal("https://idp.example.com", "bob"), Set.of(Scope.TOOLS)), oauth);
        Admitted bob = (Admitted) check.head(head());
        McpSchema.JSONRPCMessage call = ((Message) check.body(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\"}}")).message();
        Refused forbidden = check.scopes(call, bob).orElseThrow();
        assertEquals(403, forbidden.status());
        assertEquals(7, forbidden.reply().id());
        assertEquals("Bearer resource_metadata=\"https://sandbox.example.com/.well-known/oauth-protected-resource/mcp\","
                        + " scope=\"sandbox:execute sandbox:tools\", error=\"insufficient_scope\","
                        + " error_description=\"the token lacks the scope sandbox:execute\"",
                forbidden.headers().get("WWW-Authenticate"));
        for (String discovery : List.of("initialize", "tools/list", "ping")) {
            McpSchema.JSONRPCMessage message = ((Message) check.body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\""
                    + discovery + "\"}")).message();
            assertEquals(Optional.empty(), check.scopes(message, bob), discovery);
        }
        Admitted full = new Admitted(bob.principal(), Scope.all(), true);
        assertEquals(Optional.empty(), check.scopes(call, full));
    }

    @Test
    void aBodyThatIsOneJsonRpcMessagePasses() {
        Message request = assertInstanceOf(Message.class, CHECK.body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
        assertInstanceOf(McpSchema.JSONRPCRequest.class, request.message());
        Message notification = assertInstanceOf(Message.class,
                CHECK.body("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        assertInstanceOf(McpSchema.JSONRPCNotification.class, notification.message());
    }

    @Test
    void attackBodiesThatAreNotOneJsonRpcMessageAre400WithTheirJsonRpcError() {
        Map<String, Integer> bodies = new LinkedHashMap<>();
        bodies.put("", ErrorReply.INVALID_REQUEST);
        bodies.put(" \n\t", ErrorReply.INVALID_REQUEST);
        bodies.put("{not json", ErrorReply.PARSE_ERROR);
        bodies.put("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", ErrorReply.INVALID_REQUEST);
        bodies.put("\"ping\"", ErrorReply.INVALID_REQUEST);
        bodies.put("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", ErrorReply.INVALID_REQUEST);
        bodies.put("{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}", ErrorReply.INVALID_REQUEST);
        bodies.put("{\"jsonrpc\":\"2.0\",\"id\":1}", ErrorReply.INVALID_REQUEST);
        bodies.forEach((body, code) -> {
            Refused refused = assertInstanceOf(Refused.class, CHECK.body(body), body);
            assertEquals(400, refused.status(), body);
            assertEquals(code, refused.reply().error().code(), body);
            assertEquals(Map.of(), refused.headers(), body);
        });
        assertEquals("empty body", ((Refused) CHECK.body("")).reply().error().data());
    }

    @Test
    void attackABodyPastTheLimitClosesTheConnection() {
        Refused refused = CHECK.tooLarge();
        assertEquals(413, refused.status());
        assertEquals(Map.of("Connection", "close"), refused.headers());
        assertEquals(MAX_BODY, CHECK.maxBodyBytes());
    }
}
