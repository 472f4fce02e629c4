package dev.pysandbox.mcp.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** RFC 9728: where the metadata is served and what it says. */
class ProtectedResourceTest {
    private static final URI ISSUER = URI.create("https://idp.example.com/realms/agents");

    @Test
    void theMetadataOfAResourceWithAPathIsServedAtBothWellKnownForms() {
        ProtectedResource resource = new ProtectedResource(URI.create("https://sandbox.example.com/mcp"), ISSUER);
        assertEquals(URI.create("https://sandbox.example.com/.well-known/oauth-protected-resource/mcp"),
                resource.metadataUrl());
        assertEquals(List.of("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"),
                resource.servedPaths());
        assertEquals(Map.of("resource", "https://sandbox.example.com/mcp",
                "authorization_servers", List.of(ISSUER.toString()),
                "scopes_supported", List.of("sandbox:execute", "sandbox:tools"),
                "bearer_methods_supported", List.of("header"),
                "resource_name", "python-sandbox-mcp"), resource.document());
    }

    @Test
    void behindAProxyPrefixThePublicPathIsTheOneInTheMetadataAddress() {
        ProtectedResource resource = new ProtectedResource(URI.create("https://example.com/tools/sandbox/mcp"), ISSUER);
        assertEquals(URI.create("https://example.com/.well-known/oauth-protected-resource/tools/sandbox/mcp"),
                resource.metadataUrl());
    }

    @Test
    void aResourceAtTheRootHasOneAddress() {
        ProtectedResource resource = new ProtectedResource(URI.create("https://sandbox.example.com/"), ISSUER);
        assertEquals(List.of("/.well-known/oauth-protected-resource"), resource.servedPaths());
    }
}
