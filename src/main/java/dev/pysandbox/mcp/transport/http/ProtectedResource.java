package dev.pysandbox.mcp.transport.http;

import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.pysandbox.auth.Scope;

/**
 * The server as an OAuth protected resource (RFC 9728), with {@code http.auth=oauth}: the MCP endpoint's public
 * URL is the resource, and its metadata, served without a token at {@code /.well-known/oauth-protected-resource}
 * and at the path-suffixed form the RFC names ({@code …/oauth-protected-resource/mcp}), tells a client which
 * authorization server to get a token from and with which scopes. A 401's {@code WWW-Authenticate} points at it.
 *
 * @param resource the MCP endpoint as clients reach it ({@code http.public-url}, or {@code http://host:port/path})
 * @param issuer   the authorization server ({@code http.oauth.issuer})
 */
public record ProtectedResource(URI resource, URI issuer) {
    static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

    /** The metadata's path on the server: the well-known prefix, then the resource's own path. */
    String metadataPath() {
        String path = resource.getRawPath();
        return path == null || path.isEmpty() || path.equals("/") ? WELL_KNOWN : WELL_KNOWN + path;
    }

    /** Where a client reads the metadata: the resource's origin and {@link #metadataPath()}. */
    public URI metadataUrl() {
        return resource.resolve(metadataPath());
    }

    /** The paths this server answers the metadata at: the plain well-known one, and the path-suffixed one. */
    List<String> servedPaths() {
        return metadataPath().equals(WELL_KNOWN) ? List.of(WELL_KNOWN) : List.of(WELL_KNOWN, metadataPath());
    }

    /** The metadata document (RFC 9728 §2). */
    Map<String, Object> document() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("resource", resource.toString());
        document.put("authorization_servers", List.of(issuer.toString()));
        document.put("scopes_supported", Arrays.stream(Scope.values()).map(Scope::wireName).toList());
        document.put("bearer_methods_supported", List.of("header"));
        document.put("resource_name", "python-sandbox-mcp");
        return document;
    }
}
