package dev.pysandbox.auth.oauth;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.modelcontextprotocol.json.McpJsonMapper;

import dev.pysandbox.config.OAuthSettings;

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
            // One deadline for the whole exchange, body included: a server that stalls mid-body is given up on.
            CompletableFuture<Fetched> exchange = http.sendAsync(HttpRequest.newBuilder(address).timeout(TIMEOUT)
                            .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofInputStream())
                    .thenApply(AuthorizationServer::fetched);
            try {
                Fetched fetched = exchange.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                if (fetched.status() != 200) {
                    tried.add(address + ": HTTP " + fetched.status());
                    continue;
                }
                if (fetched.body().length > MAX_DOCUMENT_BYTES) {
                    tried.add(address + ": more than " + MAX_DOCUMENT_BYTES + " bytes");
                    continue;
                }
                Discovery found = read(issuer, json.readValue(fetched.body(), Map.class));
                if (found instanceof Found) {
                    return found;
                }
                tried.add(address + ": " + ((NotFound) found).reason());
            } catch (IOException | ExecutionException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                tried.add(address + ": " + cause.getClass().getSimpleName() + " " + cause.getMessage());
            } catch (TimeoutException e) {
                exchange.cancel(true);
                tried.add(address + ": no answer within " + TIMEOUT.toSeconds() + " s");
            } catch (InterruptedException e) {
                exchange.cancel(true);
                Thread.currentThread().interrupt();
                return new NotFound("interrupted");
            }
        }
        return new NotFound("no metadata for issuer " + issuer + " (" + String.join("; ", tried) + ")");
    }

    /** An answer: its status and at most one byte more of its body than a document may have. */
    private record Fetched(int status, byte[] body) {
    }

    private static Fetched fetched(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            return new Fetched(response.statusCode(), in.readNBytes(MAX_DOCUMENT_BYTES + 1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The metadata a document gives, if it is the issuer's and names keys read over a transport that keeps them
     * ours ({@link OAuthSettings#trustedTransport}).
     */
    static Discovery read(URI issuer, Map<?, ?> document) {
        if (!(document.get("issuer") instanceof String named) || !named.equals(issuer.toString())) {
            String shown = String.valueOf(document.get("issuer"));
            return new NotFound("its issuer is " + (shown.length() > 100 ? shown.substring(0, 100) + "..." : shown)
                    + ", not " + issuer);
        }
        if (!(document.get("jwks_uri") instanceof String jwks)) {
            return new NotFound("it names no jwks_uri");
        }
        try {
            URI keys = new URI(jwks);
            if (!OAuthSettings.trustedTransport(keys)) {
                return new NotFound("its jwks_uri is not an https URL (plain http is taken from this machine only)");
            }
            return new Found(issuer, keys);
        } catch (java.net.URISyntaxException e) {
            return new NotFound("its jwks_uri is not a URL");
        }
    }
}
