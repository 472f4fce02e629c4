package dev.pysandbox.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

import io.modelcontextprotocol.json.McpJsonDefaults;

import dev.pysandbox.auth.Authenticator;
import dev.pysandbox.auth.Authenticator.Authenticated;
import dev.pysandbox.auth.Authenticator.Failure;
import dev.pysandbox.auth.Authenticator.Refused;
import dev.pysandbox.auth.Principal;
import dev.pysandbox.auth.Scope;
import dev.pysandbox.config.OAuthSettings;

/**
 * The rules a JWT access token must pass, against an authorization server played by a local HTTP server that
 * serves the metadata and the key set and counts the key set's fetches. Tokens here are made by hand: that is
 * what an attacker does. OAuthIT runs the same rules against a real authorization server.
 */
class JwtAccessTokensTest {
    private static final String AUDIENCE = "https://sandbox.example.com/mcp";
    private static final RSAKey SIGNING = rsa("signing-key");
    private static final RSAKey ATTACKER = rsa("attacker-key");
    private static final ECKey EC_SIGNING = ec("ec-key");

    private HttpServer server;
    private String issuer;
    private final AtomicInteger keyFetches = new AtomicInteger();
    private volatile String servedIssuer;
    private volatile String servedKeys;

    private static RSAKey rsa(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new AssertionError(e);
        }
    }

    private static ECKey ec(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new AssertionError(e);
        }
    }

    @BeforeEach
    void startTheAuthorizationServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/agents";
        servedIssuer = issuer;
        servedKeys = issuer + "/keys";
        server.createContext("/.well-known/oauth-authorization-server/realms/agents", exchange -> send(exchange, 200,
                "{\"issuer\":\"" + servedIssuer + "\",\"jwks_uri\":\"" + servedKeys + "\"}"));
        server.createContext("/realms/agents/keys", exchange -> {
            keyFetches.incrementAndGet();
            send(exchange, 200, new JWKSet(List.of(SIGNING.toPublicJWK(), EC_SIGNING.toPublicJWK())).toString());
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static void send(com.sun.net.httpserver.HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The checker as the server builds it: its issuer's metadata read at start. */
    private JwtAccessTokens tokens() {
        JwtAccessTokens tokens = JwtAccessTokens.of(new OAuthSettings(URI.create(issuer), null, Duration.ofSeconds(60),
                16_384, Duration.ofSeconds(30)), AUDIENCE, McpJsonDefaults.getMapper());
        tokens.prepare();
        return tokens;
    }

    private JWTClaimsSet.Builder claims() {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(issuer).subject("alice").audience(List.of(AUDIENCE, "account"))
                .issueTime(Date.from(now)).notBeforeTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)))
                .claim("scope", "openid sandbox:execute profile");
    }

    private static String signed(RSAKey key, JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static Authenticator.Verdict check(JwtAccessTokens tokens, String token) {
        return tokens.check("Bearer " + token);
    }

    private static Refused refused(Authenticator.Verdict verdict, String why) {
        Refused refused = assertInstanceOf(Refused.class, verdict, why);
        assertEquals(Failure.INVALID_TOKEN, refused.failure(), why + ": " + refused.reason());
        return refused;
    }

    @Test
    void aTokenOfTheIssuerForThisServerNamesItsIssuerAndSubjectAndOurScopes() throws Exception {
        Authenticated caller = assertInstanceOf(Authenticated.class, check(tokens(), signed(SIGNING, claims().build())));
        assertEquals(new Principal(issuer, "alice"), caller.principal());
        assertEquals(Set.of(Scope.EXECUTE), caller.scopes(), "openid and profile are not ours");
    }

    @Test
    void scopesMayComeAsAnScpListAndEllipticCurveSignaturesPass() throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(EC_SIGNING.getKeyID()).build(),
                claims().claim("scope", null).claim("scp", List.of("sandbox:tools", "sandbox:execute")).build());
        jwt.sign(new ECDSASigner(EC_SIGNING));
        Authenticated caller = assertInstanceOf(Authenticated.class, check(tokens(), jwt.serialize()));
        assertEquals(Scope.all(), caller.scopes());
    }

    @Test
    void withoutABearerTokenTheRequestIsRefusedWithoutAnErrorCode() {
        assertEquals(Failure.NO_TOKEN, ((Refused) tokens().check(null)).failure());
        assertEquals(Failure.NO_TOKEN, ((Refused) tokens().check("Basic YWxpY2U6eA==")).failure());
        assertEquals(Failure.INVALID_TOKEN, ((Refused) tokens().check("Bearer    ")).failure(), "a scheme without a token");
    }

    @Test
    void attackExpiredAndNotYetValidTokensAreRefusedBeyondTheSkew() throws Exception {
        Instant now = Instant.now();
        refused(check(tokens(), signed(SIGNING, claims().expirationTime(Date.from(now.minusSeconds(120))).build())), "expired");
        refused(check(tokens(), signed(SIGNING, claims().notBeforeTime(Date.from(now.plusSeconds(120))).build())), "not yet valid");
        refused(check(tokens(), signed(SIGNING, claims().expirationTime(null).build())), "no exp");
        assertInstanceOf(Authenticated.class, check(tokens(), signed(SIGNING,
                claims().expirationTime(Date.from(now.minusSeconds(30))).build())), "within the 60 s skew");
    }

    @Test
    void attackTokensForAnotherAudienceOrFromAnotherIssuerAreRefused() throws Exception {
        refused(check(tokens(), signed(SIGNING, claims().audience("https://other.example.com/mcp").build())), "another resource");
        refused(check(tokens(), signed(SIGNING, claims().audience((String) null).build())), "no aud");
        refused(check(tokens(), signed(SIGNING, claims().issuer(issuer + "/").build())), "an issuer that only looks alike");
        refused(check(tokens(), signed(SIGNING, claims().issuer("https://evil.example.com").build())), "another issuer");
        refused(check(tokens(), signed(SIGNING, claims().subject(null).build())), "no sub");
        refused(check(tokens(), signed(SIGNING, claims().subject("alice\nINFO forged log line").build())), "a sub with a newline");
    }

    /** Attack: the header's typ is checked before the signature, and Nimbus's message quotes it. */
    @Test
    void attackATypHeaderCannotWriteLinesIntoTheLog() throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(SIGNING.getKeyID())
                .type(new JOSEObjectType("x\n{\"time\":\"forged\",\"principal\":\"alice\"}")).build(), claims().build());
        jwt.sign(new RSASSASigner(ATTACKER));
        Refused refused = refused(check(tokens(), jwt.serialize()), "a typ with a line of JSON");
        assertEquals("token type (typ) not allowed: JWT or at+jwt", refused.reason());
        assertEquals("a?b ...?", new Refused(Failure.INVALID_TOKEN, "a\nb ...\u2028").reason(),
                "any reason is kept to printable ASCII");
    }

    @Test
    void attackAnUnsignedTokenIsRefused() {
        refused(check(tokens(), new PlainJWT(claims().build()).serialize()), "alg none");
    }

    /** The classic confusion: an HMAC keyed with the issuer's public key, which anybody can read. */
    @Test
    void attackAnHmacSignedWithThePublicKeyIsRefused() throws Exception {
        byte[] publicKey = SIGNING.toRSAPublicKey().getEncoded();
        for (JWSAlgorithm hmac : List.of(JWSAlgorithm.HS256, JWSAlgorithm.HS512)) {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(hmac).keyID(SIGNING.getKeyID()).build(), claims().build());
            jwt.sign(new MACSigner(publicKey));
            refused(check(tokens(), jwt.serialize()), hmac.getName());
        }
    }

    @Test
    void attackATamperedPayloadIsRefused() throws Exception {
        String[] parts = signed(SIGNING, claims().build()).split("\\.");
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(claims().subject("root")
                .claim("scope", "sandbox:execute sandbox:tools").build().toString().getBytes(StandardCharsets.UTF_8));
        refused(check(tokens(), parts[0] + "." + forged + "." + parts[2]), "tampered");
        refused(check(tokens(), "not.a.jwt"), "garbage");
        refused(check(tokens(), "x"), "one part");
    }

    @Test
    void attackAnOversizedTokenIsRefusedUnparsed() throws Exception {
        JwtAccessTokens tokens = tokens();
        Refused refused = refused(check(tokens, "a".repeat(1_000_000)), "1 MB");
        assertTrue(refused.reason().contains("http.oauth.max-token-bytes"), refused.reason());
    }

    /** An unknown key id fetches the key set again (the issuer may have rotated), but not for every such token. */
    @Test
    void attackAFloodOfUnknownKeyIdsFetchesTheKeySetAtMostTwicePerInterval() throws Exception {
        JwtAccessTokens tokens = tokens();
        assertInstanceOf(Authenticated.class, check(tokens, signed(SIGNING, claims().build())));
        int before = keyFetches.get();
        for (int i = 0; i < 50; i++) {
            RSAKey unknown = new RSAKey.Builder(ATTACKER).keyID("made-up-" + i).build();
            refused(check(tokens, signed(unknown, claims().build())), "kid " + i);
        }
        int flood = keyFetches.get() - before;
        assertTrue(flood >= 1 && flood <= 2, "fetches during the flood: " + flood);
        assertInstanceOf(Authenticated.class, check(tokens, signed(SIGNING, claims().build())), "known keys still work");
    }

    @Test
    void whileTheIssuerCannotBeReadRequestsAreUnavailableNotUnauthorized() throws Exception {
        String token = signed(SIGNING, claims().build());
        server.stop(0);
        Refused refused = assertInstanceOf(Refused.class, check(tokens(), token));
        assertEquals(Failure.KEYS_UNAVAILABLE, refused.failure());
    }

    /** RFC 8414 §3.3: metadata that names another issuer was not served by ours. */
    @Test
    void attackMetadataNamingAnotherIssuerIsNotBelieved() throws Exception {
        servedIssuer = "https://evil.example.com";
        Refused refused = assertInstanceOf(Refused.class, check(tokens(), signed(SIGNING, claims().build())));
        assertEquals(Failure.KEYS_UNAVAILABLE, refused.failure());
    }

    /** Keys read over plain http from another machine could be anyone's: metadata naming such a jwks_uri is refused. */
    @Test
    void attackMetadataNamingKeysOverPlainHttpElsewhereIsNotBelieved() throws Exception {
        servedKeys = "http://keys.example.com/realms/agents/keys";
        JwtAccessTokens tokens = tokens();
        assertFalse(tokens.prepare());
        assertEquals(Failure.KEYS_UNAVAILABLE, ((Refused) check(tokens, signed(SIGNING, claims().build()))).failure());
    }

    @Test
    void metadataIsLookedForWhereRfc8414AndOpenIdDiscoverySay() {
        assertEquals(List.of(URI.create("https://idp.example.com/.well-known/oauth-authorization-server/realms/a"),
                        URI.create("https://idp.example.com/.well-known/openid-configuration/realms/a"),
                        URI.create("https://idp.example.com/realms/a/.well-known/openid-configuration")),
                AuthorizationServer.metadataAddresses(URI.create("https://idp.example.com/realms/a")));
        assertEquals(List.of(URI.create("https://idp.example.com/.well-known/oauth-authorization-server"),
                        URI.create("https://idp.example.com/.well-known/openid-configuration")),
                AuthorizationServer.metadataAddresses(URI.create("https://idp.example.com")));
    }
}
