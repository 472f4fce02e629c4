package dev.pysandbox.auth.oauth;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;

/**
 * An authorization server's metadata, found from its issuer URL as RFC 8414 and OpenID Connect Discovery say,
 * in the order the MCP authorization specification gives: {@code /.well-known/oauth-authorization-server} inserted
 * before the issuer's path, then {@code /.well-known/openid-configuration} inserted, then appended. A document
 * counts only if its {@code issuer} is exactly the one configured (RFC 8414 §3.3): anything else could have been
 * served by someone else at that address, and its keys would then sign our tokens.
 */
public final class AuthorizationServer {
    /** A metadata document is a few kilobytes; reading stops well past that. */
    private static final int MAX_DOCUMENT_BYTES = 256 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** What discovery found, or why it found nothing. */
    public sealed interface Discovery permits Found, NotFound {
    }

    /** The metadata: the issuer it vouches for, and where its signing keys are. */
    public record Found(URI issuer, URI jwksUri) implements Discovery {
    }

    /** @param reason each address tried, and what it answered */
    public record NotFound(String reason) implements Discovery {
    }

    private AuthorizationServer() {
    }

    /** The addresses of the issuer's metadata, in the order they are tried. */
    static List<URI> metadataAddresses(URI issuer) {
        String path = issuer.getRawPath() == null ? "" : issuer.getRawPath().replaceAll("/+$", "");
        URI root = issuer.resolve("/");
        List<URI> addresses = new ArrayList<>();
        addresses.add(root.resolve("/.well-known/oauth-authorization-server" + path));
        addresses.add(root.resolve("/.well-known/openid-configuration" + path));
        if (!path.isEmpty()) {
            addresses.add(root.resolve(path + "/.well-known/openid-configuration"));
        }
        return addresses;
    }

    /** Reads the issuer's metadata over HTTP. */
    public static Discovery discover(URI issuer, HttpClient http, McpJsonMapper json) {
        List<String> tried = new ArrayList<>();
        for (URI address : metadataAddresses(issuer)) {
            try {
                HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(address).timeout(TIMEOUT)
                        .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
                byte[] body;
                try (InputStream in = response.body()) {
                    body = in.readNBytes(MAX_DOCUMENT_BYTES + 1);
                }
                if (response.statusCode() != 200) {
                    tried.add(address + ": HTTP " + response.statusCode());
                    continue;
                }
                if (body.length > MAX_DOCUMENT_BYTES) {
                    tried.add(address + ": more than " + MAX_DOCUMENT_BYTES + " bytes");
                    continue;
                }
                Discovery found = read(issuer, json.readValue(body, Map.class));
                if (found instanceof Found) {
                    return found;
                }
                tried.add(address + ": " + ((NotFound) found).reason());
            } catch (IOException e) {
                tried.add(address + ": " + e.getClass().getSimpleName() + " " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new NotFound("interrupted");
            }
        }
        return new NotFound("no metadata for issuer " + issuer + " (" + String.join("; ", tried) + ")");
    }

    /** The metadata a document gives, if it is the issuer's and names its keys. */
    static Discovery read(URI issuer, Map<?, ?> document) {
        if (!(document.get("issuer") instanceof String named) || !named.equals(issuer.toString())) {
            return new NotFound("its issuer is " + document.get("issuer") + ", not " + issuer);
        }
        if (!(document.get("jwks_uri") instanceof String jwks)) {
            return new NotFound("it names no jwks_uri");
        }
        try {
            URI keys = new URI(jwks);
            if (!("https".equals(keys.getScheme()) || "http".equals(keys.getScheme())) || keys.getHost() == null) {
                return new NotFound("its jwks_uri is not an http(s) URL");
            }
            return new Found(issuer, keys);
        } catch (java.net.URISyntaxException e) {
            return new NotFound("its jwks_uri is not a URL");
        }
    }
}
