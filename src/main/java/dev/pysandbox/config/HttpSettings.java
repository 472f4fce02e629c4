package dev.pysandbox.config;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Remote mode's settings ({@code transport=http}, {@code http.*}): where the server listens, who may call it,
 * and the limits of its HTTP edge.
 *
 * @param enabled         whether the server speaks MCP over HTTP instead of stdio ({@code transport})
 * @param host            the address to bind; loopback unless the operator says otherwise
 * @param port            0 for any free port
 * @param portFile        where the bound port is written once listening (for scripts and tests); null for none
 * @param path            the MCP endpoint
 * @param auth            {@code http.auth}: how callers are known
 * @param tokens          {@code http.auth=token}: the bearer tokens file; null otherwise
 * @param oauth           {@code http.auth=oauth}: the authorization server and the token rules; null otherwise
 * @param publicUrl       {@code http.public-url}: the MCP endpoint's URL as clients reach it (behind a proxy, its
 *                        https URL); null for {@code http://host:port/path}, known once the port is bound
 * @param allowedHosts    {@code Host} values accepted ({@code name[:port|:*]}); empty for no check
 * @param allowedOrigins  {@code Origin} values accepted ({@code scheme://name[:port|:*]}); a request with any
 *                        other Origin is refused, and one without is accepted
 * @param maxRequestBytes the largest request body read
 * @param maxHeaderBytes  the largest request head (request line and headers) read; larger ones get 431
 * @param keepAlive       how often a long call's event stream carries a comment, so proxies that cut idle
 *                        connections leave it open; zero for none
 * @param maxInFlight     tool calls running or waiting at once; beyond it calls get 503 and Retry-After
 */
public record HttpSettings(boolean enabled, String host, int port, Path portFile, String path, AuthMode auth,
        Path tokens, OAuthSettings oauth, URI publicUrl, List<String> allowedHosts, List<String> allowedOrigins,
        int maxRequestBytes, int maxHeaderBytes, Duration keepAlive, int maxInFlight) {
    public HttpSettings {
        allowedHosts = List.copyOf(allowedHosts);
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** Whether {@code host} names only this machine, so that nobody else can reach the server. */
    public static boolean isLoopback(String host) {
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
