package dev.pysandbox.config;

import java.net.URI;
import java.time.Duration;

/**
 * {@code http.auth=oauth}: the server as an OAuth 2.1 resource server (README, "OAuth"). Tokens are JWTs the
 * issuer signed, for this server's audience.
 *
 * @param issuer           {@code http.oauth.issuer}: the authorization server, exactly as its tokens' {@code iss}
 *                         says; its metadata (RFC 8414, else OpenID discovery) names its keys' {@code jwks_uri}
 * @param audience         {@code http.oauth.audience}: what a token's {@code aud} must contain; null for the
 *                         server's public MCP URL ({@code http.public-url}), as RFC 8707 resource indicators make it
 * @param clockSkew        how far {@code exp} and {@code nbf} may be off ({@code http.oauth.clock-skew-seconds})
 * @param maxTokenBytes    a longer token is refused unread ({@code http.oauth.max-token-bytes})
 * @param keysRefreshEvery at most two fetches of the issuer's keys in this time
 *                         ({@code http.oauth.jwks-refresh-seconds}): a token signed with an unknown key fetches
 *                         them again, and a flood of such tokens must not flood the authorization server
 */
public record OAuthSettings(URI issuer, String audience, Duration clockSkew, int maxTokenBytes,
        Duration keysRefreshEvery) {
    /**
     * Whether keys or metadata may be read from {@code url}: over https, or over plain http from this machine
     * only (a test's authorization server). Over the network, plain http would let anyone on the path swap in
     * keys of their own and sign tokens that pass every check.
     */
    public static boolean trustedTransport(URI url) {
        String host = url.getHost();
        if ("https".equals(url.getScheme())) {
            return host != null;
        }
        return "http".equals(url.getScheme()) && host != null
                && (host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1"));
    }
}
