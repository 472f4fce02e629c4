package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;

import dev.pysandbox.wire.WireCodec;

/**
 * Remote mode as an OAuth 2.1 resource server (issue 42), against a real authorization server started here
 * (mock-oauth2-server: discovery, JWKS, client credentials, authorization code with PKCE), whose policy
 * ({@link ResourceBoundTokens}) binds each token to the resource the client asked for. Tokens are the
 * authorization server's, except in the attack cases, which forge them as an attacker would.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OAuthIT {
    private static final String ISSUER_ID = "sandbox";
    private static final String METADATA_PATH = "/.well-known/oauth-protected-resource/mcp";

    private MockOAuth2Server authorizationServer;
    private HttpSandboxServer server;
    private String issuer;
    private String resource;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final List<McpSyncClient> clients = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        authorizationServer = new MockOAuth2Server(new OAuth2Config(false, null, null, false, new OAuth2TokenProvider(),
                Set.of(new ResourceBoundTokens(ISSUER_ID))));
        authorizationServer.start();
        issuer = authorizationServer.issuerUrl(ISSUER_ID).toString();
        Path servers = CodeModeIT.serversFile(Files.createTempDirectory("oauth-it"), "servers.json", CodeModeIT.stub("stub", List.of("add"), List.of()));
        server = HttpSandboxServer.start(Map.of(), "--http.auth=oauth", "--http.oauth.issuer=" + issuer,
                "--http.oauth.clock-skew-seconds=5", "--code-mode.servers=" + servers, "--workers=1");
        resource = server.url("/mcp");
    }

    @AfterAll
    void stop() throws Exception {
        for (McpSyncClient client : clients) {
            client.closeGracefully();
        }
        if (server != null) {
            server.close();
        }
        if (authorizationServer != null) {
            authorizationServer.shutdown();
        }
    }

    /** A token from the authorization server's token endpoint (client credentials), for {@code forResource}. */
    private String clientCredentials(String client, String scope, String forResource) throws Exception {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        form.put("client_id", client);
        form.put("client_secret", "not-checked-by-the-test-server");
        form.put("scope", scope);
        form.put("resource", forResource);
        StringBuilder body = new StringBuilder();
        form.forEach((name, value) -> body.append(body.isEmpty() ? "" : "&").append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                        URI.create(authorizationServer.tokenEndpointUrl(ISSUER_ID).toString()))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return (String) ((Map<?, ?>) WireCodec.parseValue(response.body())).get("access_token");
    }

    private McpSyncClient client(String token) {
        McpSyncClient client = server.client(token);
        clients.add(client);
        return client;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> execute(McpSyncClient client, Map<String, Object> arguments) {
        CallToolResult result = client.callTool(new CallToolRequest("execute_code", arguments));
        assertNotNull(result.structuredContent(), result::toString);
        return (Map<String, Object>) result.structuredContent();
    }

    private static Map<String, Object> python(String code, String sessionId) {
        Map<String, Object> arguments = new LinkedHashMap<>(Map.of("language", "python", "code", code));
        if (sessionId != null) {
            arguments.put("session_id", sessionId);
        }
        return arguments;
    }

    private HttpResponse<String> callWith(String authorization, String sessionId) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
                + "\"arguments\":{\"language\":\"python\",\"code\":\"planted = 1\",\"session_id\":\"" + sessionId + "\"}}}";
        return authorization == null ? server.post(body) : server.post(body, "Authorization", authorization);
    }

    @Test
    @Order(1)
    void theProtectedResourceMetadataNamesTheIssuerAndOurScopesAtBothAddresses() throws Exception {
        for (String path : List.of(METADATA_PATH, "/.well-known/oauth-protected-resource")) {
            HttpResponse<String> response = server.get(path);
            assertEquals(200, response.statusCode(), path);
            assertEquals("*", response.headers().firstValue("Access-Control-Allow-Origin").orElse(null), path);
            Map<?, ?> metadata = (Map<?, ?>) WireCodec.parseValue(response.body());
            assertEquals(resource, metadata.get("resource"), path);
            assertEquals(List.of(issuer), metadata.get("authorization_servers"), path);
            assertEquals(List.of("sandbox:execute", "sandbox:tools"), metadata.get("scopes_supported"), path);
            assertEquals(List.of("header"), metadata.get("bearer_methods_supported"), path);
        }
    }

    @Test
    @Order(2)
    void aRequestWithoutATokenGets401PointingAtTheMetadata() throws Exception {
        HttpResponse<String> response = callWith(null, "nobody");
        assertEquals(401, response.statusCode(), response.body());
        assertEquals("Bearer resource_metadata=\"" + server.url(METADATA_PATH) + "\", scope=\"sandbox:execute sandbox:tools\"",
                response.headers().firstValue("WWW-Authenticate").orElse(null));
        assertFalse(response.body().contains("stackTrace"), response.body());
    }

    /**
     * Attack: tokens forged, expired, or meant for someone else. Each gets 401 with {@code invalid_token}, no call
     * runs, no session is opened, and the token is never written to the log.
     */
    @Test
    @Order(3)
    void attackEveryForgedExpiredOrMisdirectedTokenGets401AndLeavesNothingBehind() throws Exception {
        String real = clientCredentials("agent-a", "sandbox:execute", resource);
        Map<String, String> attacks = new LinkedHashMap<>();
        long now = Instant.now().getEpochSecond();
        attacks.put("expired", authorizationServer.issueToken(ISSUER_ID, "agent-a", resource,
                Map.of("scope", "sandbox:execute"), -60L).serialize());
        attacks.put("not yet valid", authorizationServer.issueToken(ISSUER_ID, "agent-a", resource,
                Map.of("scope", "sandbox:execute", "nbf", now + 600), 3600L).serialize());
        attacks.put("wrong audience", authorizationServer.issueToken(ISSUER_ID, "agent-a", "https://other.example.com/mcp",
                Map.of("scope", "sandbox:execute"), 3600L).serialize());
        attacks.put("wrong issuer", authorizationServer.issueToken("another-issuer", "agent-a", resource,
                Map.of("scope", "sandbox:execute"), 3600L).serialize());
        attacks.put("a token for another resource", clientCredentials("agent-a", "sandbox:execute",
                "https://other.example.com/mcp"));
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(issuer).subject("agent-a").audience(resource)
                .expirationTime(Date.from(Instant.now().plusSeconds(600))).claim("scope", "sandbox:execute").build();
        attacks.put("alg none", new PlainJWT(claims).serialize());
        RSAKey issuerKey = JWKSet.load(URI.create(authorizationServer.jwksUrl(ISSUER_ID).toString()).toURL()).getKeys().get(0).toRSAKey();
        SignedJWT hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(issuerKey.getKeyID()).build(), claims);
        hmac.sign(new MACSigner(issuerKey.toRSAPublicKey().getEncoded()));
        attacks.put("HS256 signed with the issuer's public key", hmac.serialize());
        RSAKey attacker = new RSAKeyGenerator(2048).keyID("rotated-away").generate();
        SignedJWT unknownKid = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rotated-away").build(), claims);
        unknownKid.sign(new RSASSASigner(attacker));
        attacks.put("unknown kid", unknownKid.serialize());
        String[] parts = real.split("\\.");
        Map<String, Object> payload = new LinkedHashMap<>(SignedJWT.parse(real).getJWTClaimsSet().toJSONObject());
        payload.put("sub", "root");
        payload.put("scope", "sandbox:execute sandbox:tools");
        attacks.put("tampered payload", parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(WireCodec.encode(payload).getBytes(StandardCharsets.UTF_8)) + "." + parts[2]);
        attacks.put("a 1 MB token", "e" + "A".repeat(1_000_000));

        // Which rule refused each, as error_description says: so that no case passes for a reason it was not meant
        // to test. Another issuer of the same server signs with a key of its own, so its token fails at the key
        // (JwtAccessTokensTest refuses a look-alike iss signed with the right key).
        Map<String, List<String>> because = new LinkedHashMap<>();
        because.put("expired", List.of("Expired JWT"));
        because.put("not yet valid", List.of("JWT before use time"));
        because.put("wrong audience", List.of("JWT aud claim rejected"));
        because.put("wrong issuer", List.of("no matching key", "key set does not hold"));
        because.put("a token for another resource", List.of("JWT aud claim rejected"));
        because.put("alg none", List.of("unsigned token (alg none)"));
        because.put("HS256 signed with the issuer's public key", List.of("Another algorithm expected"));
        because.put("unknown kid", List.of("no matching key", "key set does not hold"));
        because.put("tampered payload", List.of("Invalid signature"));
        because.put("a 1 MB token", List.of("http.oauth.max-token-bytes"));
        assertEquals(because.keySet(), attacks.keySet());

        McpSyncClient valid = client(real);
        String before = metrics(real);
        int i = 0;
        for (Map.Entry<String, String> attack : attacks.entrySet()) {
            HttpResponse<String> response = callWith("Bearer " + attack.getValue(), "attack-" + i++);
            assertEquals(401, response.statusCode(), attack.getKey() + ": " + response.body());
            String challenge = response.headers().firstValue("WWW-Authenticate").orElse("");
            assertTrue(challenge.contains("error=\"invalid_token\"") && challenge.contains("resource_metadata="),
                    attack.getKey() + ": " + challenge);
            assertTrue(because.get(attack.getKey()).stream().anyMatch(challenge::contains),
                    attack.getKey() + " refused for another reason: " + challenge);
        }
        String after = metrics(real);
        assertEquals(sum(before, "pysandbox_tool_calls_seconds_count"), sum(after, "pysandbox_tool_calls_seconds_count"),
                "no call ran");
        assertEquals(0.0, sum(after, "pysandbox_sessions_open"), "no session was opened");
        for (Map.Entry<String, String> attack : attacks.entrySet()) {
            String token = attack.getValue();
            // The end of each token (its signature, or the 1 MB token's filler) must be in no log line.
            String tail = token.substring(token.length() - Math.min(24, token.length() / 2));
            assertTrue(server.log.stream().noneMatch(line -> line.contains(tail)), attack.getKey() + ": a token in the log");
        }
        assertTrue(server.log.stream().noneMatch(line -> line.contains(parts[2])), "the real token in the log");
        // The server is whole: a valid token still runs code, and the sessions the attacks named do not exist.
        assertEquals("None\n", execute(valid, python("print(globals().get('planted'))", "attack-0")).get("stdout"));
    }

    @Test
    @Order(4)
    void aTokenOfTheIssuerForThisServerRunsPythonAndJavaScript() throws Exception {
        McpSyncClient agent = client(clientCredentials("agent-a", "sandbox:execute", resource));
        Map<String, Object> result = execute(agent, python("print(6 * 7)", null));
        assertEquals("success", result.get("status"), result.toString());
        assertEquals("42\n", result.get("stdout"));
        Map<String, Object> js = execute(agent, Map.of("language", "javascript", "code", "console.log([1, 2].map(x => x * 3))"));
        assertEquals("[ 3, 6 ]\n", js.get("stdout"), js.toString());
    }

    /** A token without sandbox:execute may discover the tools but not call them: 403 insufficient_scope. */
    @Test
    @Order(5)
    void aTokenWithoutTheExecuteScopeGets403InsufficientScope() throws Exception {
        String toolsOnly = clientCredentials("agent-c", "sandbox:tools", resource);
        HttpResponse<String> list = server.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                "Authorization", "Bearer " + toolsOnly);
        assertEquals(200, list.statusCode(), list.body());
        assertTrue(list.body().contains("execute_code"), list.body());
        HttpResponse<String> call = callWith("Bearer " + toolsOnly, "scoped");
        assertEquals(403, call.statusCode(), call.body());
        // The scope asked for again is the one lacking and the one held, so that signing in again loses none.
        assertEquals("Bearer resource_metadata=\"" + server.url(METADATA_PATH) + "\", scope=\"sandbox:execute sandbox:tools\","
                        + " error=\"insufficient_scope\", error_description=\"the token lacks the scope sandbox:execute\"",
                call.headers().firstValue("WWW-Authenticate").orElse(null));
        assertTrue(call.body().contains("needs the scope sandbox:execute"), call.body());
        assertTrue(server.log.stream().anyMatch(line -> line.contains("of agent-c@" + issuer + ": no scope sandbox:execute")),
                "the log names the principal, as issuer and subject");
    }

    /** The operator's downstream tools need sandbox:tools as well: code without it gets ToolError(not_allowed). */
    @Test
    @Order(6)
    void codeModesToolsNeedTheToolsScope() throws Exception {
        String code = """
                try:
                    print(context.tools.call('stub.add', {'a': 2, 'b': 3})['sum'])
                except ToolError as e:
                    print(e.kind, e)
                """;
        McpSyncClient executeOnly = client(clientCredentials("agent-d", "sandbox:execute", resource));
        String refused = (String) execute(executeOnly, python(code, null)).get("stdout");
        assertTrue(refused.startsWith("not_allowed") && refused.contains("sandbox:tools"), refused);
        McpSyncClient both = client(clientCredentials("agent-d", "sandbox:execute sandbox:tools", resource));
        assertEquals("5\n", execute(both, python(code, null)).get("stdout"));
    }

    /** A principal is the token's issuer and subject: two clients choosing the same session id never meet. */
    @Test
    @Order(7)
    void principalsNeverShareASessionWhateverIdTheyChoose() throws Exception {
        McpSyncClient a = client(clientCredentials("agent-a", "sandbox:execute", resource));
        McpSyncClient b = client(clientCredentials("agent-b", "sandbox:execute", resource));
        assertEquals("success", execute(a, python("secret = 'a-only'", "shared")).get("status"));
        assertEquals("None\n", execute(b, python("print(globals().get('secret'))", "shared")).get("stdout"));
        assertEquals("a-only\n", execute(a, python("print(secret)", "shared")).get("stdout"));
        McpSyncClient aAgain = client(clientCredentials("agent-a", "sandbox:execute", resource));
        assertEquals("a-only\n", execute(aAgain, python("print(secret)", "shared")).get("stdout"),
                "a new token of the same principal reaches its session");
    }

    /**
     * The TypeScript SDK's client runs its real OAuth flow: the 401, the resource metadata, the authorization
     * server's metadata, an authorization request with PKCE (S256) and the resource indicator, the code exchanged
     * for a token bound to this server, then a call.
     */
    @Test
    @Order(8)
    @SuppressWarnings("unchecked")
    void theTypeScriptSdkSignsInWithTheAuthorizationCodeFlowAndCallsATool() throws Exception {
        TypeScriptClientIT.installTheTypeScriptSdk();
        Map<String, Object> outcome = TypeScriptClientIT.runScript(List.of("node", TypeScriptClientIT.OAUTH_SCRIPT, resource));
        assertEquals("UnauthorizedError", outcome.get("firstError"), outcome.toString());
        Map<String, Object> authorization = (Map<String, Object>) outcome.get("authorization");
        assertEquals("S256", authorization.get("code_challenge_method"), outcome.toString());
        assertEquals(resource, authorization.get("resource"), outcome.toString());
        assertEquals("ts-agent", authorization.get("client_id"), outcome.toString());
        assertEquals("sandbox:execute sandbox:tools", authorization.get("scope"), "the scope our 401 named");
        assertEquals(Boolean.TRUE, outcome.get("stateKept"), outcome.toString());
        Map<String, Object> token = (Map<String, Object>) outcome.get("token");
        assertEquals(issuer, token.get("iss"));
        assertEquals("user-of-ts-agent", token.get("sub"));
        Object audience = token.get("aud");
        assertTrue(audience.equals(resource) || audience.equals(List.of(resource)), "bound to this server: " + audience);
        Map<String, Object> result = (Map<String, Object>) outcome.get("result");
        assertEquals("success", result.get("status"), outcome.toString());
        assertEquals("42\n", result.get("stdout"));
    }

    private String metrics(String token) throws IOException, InterruptedException {
        HttpResponse<String> response = server.get("/metrics", "Authorization", "Bearer " + token);
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private static double sum(String exposition, String prefix) {
        double total = 0;
        for (String line : exposition.split("\n")) {
            if (line.startsWith(prefix + " ") || line.startsWith(prefix + "{")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }
}
