package dev.pysandbox.auth.oauth;

import java.net.MalformedURLException;
import java.net.URI;
import java.net.http.HttpClient;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.JWTProcessor;

import io.modelcontextprotocol.json.McpJsonMapper;

import dev.pysandbox.auth.Authenticator;
import dev.pysandbox.auth.Principal;
import dev.pysandbox.auth.Scope;
import dev.pysandbox.config.OAuthSettings;

/**
 * {@code http.auth=oauth}: bearer tokens that are JWT access tokens of the configured authorization server, for
 * this server (SECURITY.md, "Remote mode"). Nimbus JOSE+JWT checks them; this class only says which rules:
 * <ul>
 * <li>asymmetric signatures only ({@link #ALGORITHMS}): never {@code none}, never an HMAC, whose secret would be
 * the issuer's public key to anyone who tried;</li>
 * <li>{@code iss} exactly the configured issuer; {@code aud} containing the audience; {@code sub} and {@code exp}
 * present; {@code exp} and {@code nbf} within the clock skew;</li>
 * <li>a token longer than {@code http.oauth.max-token-bytes} is refused before it is parsed;</li>
 * <li>the issuer's keys are cached; a token signed with a key id not in the cache fetches them again (the issuer
 * rotated its keys), at most twice per {@code http.oauth.jwks-refresh-seconds}, so that tokens with made-up key
 * ids cannot make the server hammer the authorization server.</li>
 * </ul>
 * The principal is {@code iss} and {@code sub}; the scopes are ours among {@code scope} (RFC 9068, space-separated)
 * and {@code scp} (a list, as Okta and Entra ID write them). The issuer's metadata is read at start
 * ({@link #prepare}); while it cannot be, requests get 503 at once, and a request starts another attempt in the
 * background at most every 10 seconds.
 */
public final class JwtAccessTokens implements Authenticator {
    private static final Logger log = LoggerFactory.getLogger(JwtAccessTokens.class);
    /** RSA and ECDSA signatures; EdDSA would need a further library. */
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
            JWSAlgorithm.ES512);
    /** {@code JWT}, RFC 9068's {@code at+jwt}, or no {@code typ} at all (Keycloak, Auth0 and others write JWT). */
    private static final DefaultJOSEObjectTypeVerifier<SecurityContext> TYPES = new DefaultJOSEObjectTypeVerifier<>(
            JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), new JOSEObjectType("application/at+jwt"), null);
    private static final Duration RETRY_DISCOVERY = Duration.ofSeconds(10);
    /** How long fetched keys are used before they are fetched again anyway. */
    private static final Duration KEYS_LIFETIME = Duration.ofMinutes(15);
    private static final int KEYS_TIMEOUT_MILLIS = 5_000;
    private static final int KEYS_MAX_BYTES = 512 * 1024;

    private final OAuthSettings settings;
    private final String audience;
    private final HttpClient http;
    private final McpJsonMapper json;
    private volatile JWTProcessor<SecurityContext> processor;
    private volatile long nextDiscovery = System.nanoTime();
    /** Whether a discovery runs now: at most one at a time, never on a request's thread. */
    private final AtomicBoolean discovering = new AtomicBoolean();

    /**
     * @param audience what {@code aud} must contain: {@code http.oauth.audience}, else the server's public MCP URL
     */
    public JwtAccessTokens(OAuthSettings settings, String audience, HttpClient http, McpJsonMapper json) {
        this.settings = settings;
        this.audience = audience;
        this.http = http;
        this.json = json;
    }

    /** Reads the issuer's metadata now, so that a mistake shows in the log at start; false if it could not. */
    public boolean prepare() {
        if (discovering.compareAndSet(false, true)) {
            discover();
        }
        return processor != null;
    }

    @Override
    public Verdict check(String authorization) {
        String token = Authenticator.bearerToken(authorization);
        if (token == null) {
            return new Refused(Failure.NO_TOKEN, "no bearer token");
        }
        if (token.isEmpty()) {
            return new Refused(Failure.INVALID_TOKEN, "empty token");
        }
        if (token.length() > settings.maxTokenBytes()) {
            return new Refused(Failure.INVALID_TOKEN, "token longer than " + settings.maxTokenBytes()
                    + " bytes (http.oauth.max-token-bytes)");
        }
        JWTProcessor<SecurityContext> checker = processor();
        if (checker == null) {
            return new Refused(Failure.KEYS_UNAVAILABLE, discoveryFailure());
        }
        JWTClaimsSet claims;
        try {
            claims = checker.process(token, null);
        } catch (ParseException e) {
            return new Refused(Failure.INVALID_TOKEN, "not a JWT");
        } catch (BadJOSEException e) {
            return new Refused(Failure.INVALID_TOKEN, reason(e));
        } catch (RateLimitReachedException e) {
            return new Refused(Failure.INVALID_TOKEN, "signed with a key the issuer's key set does not hold"
                    + " (fetched again at most twice per " + settings.keysRefreshEvery().toSeconds() + " s)");
        } catch (KeySourceException e) {
            log.warn("could not read the signing keys of {}: {}", settings.issuer(), e.getMessage());
            return new Refused(Failure.KEYS_UNAVAILABLE, "the authorization server's keys could not be read");
        } catch (JOSEException e) {
            return new Refused(Failure.INVALID_TOKEN, "signature not verified");
        }
        String subject = claims.getSubject();
        if (subject == null || subject.isBlank() || subject.length() > 1024 || subject.chars().anyMatch(Character::isISOControl)) {
            return new Refused(Failure.INVALID_TOKEN, "the token's sub is empty, too long or holds control characters");
        }
        return new Authenticated(new Principal(claims.getIssuer(), subject), Scope.named(scopeNames(claims)));
    }

    /**
     * Why Nimbus refused a token, in words of our own where its message could carry what the token said: the
     * one for a refused {@code typ} quotes the header's value, which a caller without any valid token chooses
     * (a line break in it would forge log lines). The others name the rule broken ("Expired JWT", "JWT aud claim
     * rejected"); {@link Authenticator.Refused} keeps any reason to printable ASCII besides.
     */
    static String reason(BadJOSEException e) {
        String message = String.valueOf(e.getMessage());
        if (message.startsWith("JOSE header typ")) {
            return "token type (typ) not allowed: JWT or at+jwt";
        }
        if (message.startsWith("Unsecured")) {
            return "unsigned token (alg none)";
        }
        return message;
    }

    /** The scope names a token carries: {@code scope} (space-separated) and {@code scp} (a list or a string). */
    static List<String> scopeNames(JWTClaimsSet claims) {
        List<String> names = new ArrayList<>();
        for (String claim : List.of("scope", "scp")) {
            Object value = claims.getClaim(claim);
            if (value instanceof String text) {
                names.addAll(List.of(text.strip().split("\\s+")));
            } else if (value instanceof List<?> list) {
                list.stream().filter(String.class::isInstance).map(String.class::cast).forEach(names::add);
            }
        }
        return names;
    }

    private String discoveryFailure() {
        return discovering.get() ? "the authorization server's metadata is being read"
                : "the authorization server's metadata could not be read";
    }

    /**
     * The checker once the issuer's metadata is known; null while it is not. A request never waits for the
     * authorization server: it starts a discovery in the background if none runs and the last failed more than
     * {@link #RETRY_DISCOVERY} ago, and is answered 503 meanwhile.
     */
    private JWTProcessor<SecurityContext> processor() {
        JWTProcessor<SecurityContext> ready = processor;
        if (ready == null && System.nanoTime() - nextDiscovery >= 0 && discovering.compareAndSet(false, true)) {
            Thread thread = new Thread(this::discover, "oauth-discovery");
            thread.setDaemon(true);
            thread.start();
        }
        return ready;
    }

    /** Reads the issuer's metadata and builds the checker; on failure, says why and when it is tried again. */
    private void discover() {
        try {
            switch (AuthorizationServer.discover(settings.issuer(), http, json)) {
                case AuthorizationServer.Found found -> {
                    processor = processor(found.jwksUri());
                    log.info("OAuth: tokens of {} for audience {}; keys from {}", settings.issuer(), audience,
                            found.jwksUri());
                }
                case AuthorizationServer.NotFound notFound -> failed(notFound.reason());
            }
        } catch (RuntimeException e) {
            failed(e.toString());
        } finally {
            discovering.set(false);
        }
    }

    private void failed(String why) {
        nextDiscovery = System.nanoTime() + RETRY_DISCOVERY.toNanos();
        log.warn("OAuth: {}; requests get 503 until it can be read (tried again in {} s at the next request)", why,
                RETRY_DISCOVERY.toSeconds());
    }

    private JWTProcessor<SecurityContext> processor(URI jwksUri) {
        JWKSource<SecurityContext> keys;
        try {
            keys = JWKSourceBuilder.<SecurityContext>create(jwksUri.toURL(),
                            new DefaultResourceRetriever(KEYS_TIMEOUT_MILLIS, KEYS_TIMEOUT_MILLIS, KEYS_MAX_BYTES))
                    .cache(KEYS_LIFETIME.toMillis(), KEYS_TIMEOUT_MILLIS)
                    .rateLimited(settings.keysRefreshEvery().toMillis())
                    .refreshAheadCache(false)
                    .retrying(false)
                    .outageTolerant(false)
                    .build();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("jwks_uri " + jwksUri, e);
        }
        DefaultJWTProcessor<SecurityContext> checker = new DefaultJWTProcessor<>();
        checker.setJWSTypeVerifier(TYPES);
        checker.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(Set.of(audience),
                new JWTClaimsSet.Builder().issuer(settings.issuer().toString()).build(), Set.of("sub", "exp"), Set.of());
        claims.setMaxClockSkew((int) settings.clockSkew().toSeconds());
        checker.setJWTClaimsSetVerifier(claims);
        return checker;
    }

    /** Builds the checker for {@code issuer}'s tokens, reading its metadata with a client of its own. */
    public static JwtAccessTokens of(OAuthSettings settings, String audience, McpJsonMapper json) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).build();
        return new JwtAccessTokens(settings, audience, client, json);
    }
}
