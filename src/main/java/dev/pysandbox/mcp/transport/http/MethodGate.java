package dev.pysandbox.mcp.transport.http;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import dev.pysandbox.mcp.transport.ErrorReply;

/**
 * The methods each path takes, checked before any servlet: POST at the MCP endpoint, GET and HEAD at the
 * probes and {@code /metrics}, GET, HEAD and OPTIONS (a browser's CORS preflight) at the OAuth protected resource
 * metadata ({@link ProtectedResource}) when it is served, nothing anywhere else. Everything else is refused here with a JSON-RPC error body: otherwise the
 * servlet defaults answer {@code TRACE} with 200 and the request echoed, on every path and before the Host and
 * Origin checks, and {@code OPTIONS} with 200 (issue 22).
 */
final class MethodGate extends Handler.Wrapper {
    /** The paths that are read: the probes, and the metrics ({@link HttpEndpoint#METRICS_PATH}). */
    private static final Set<String> PROBES = Set.of("/healthz", "/readyz", HttpEndpoint.METRICS_PATH);
    private static final Set<String> PROBE_METHODS = Set.of("GET", "HEAD");
    private static final Set<String> METADATA_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    /**
     * What the gate answers instead of the servlets.
     *
     * @param allow the {@code Allow} header of a 405; null for a 404
     */
    record Refusal(int status, String allow, String message) {
    }

    private final String mcpPath;
    private final Set<String> metadataPaths;
    private final Function<ErrorReply, byte[]> body;

    /**
     * @param mcpPath       the MCP endpoint ({@code http.path})
     * @param metadataPaths where the protected resource metadata is served; none without OAuth
     * @param body          the bytes of a JSON-RPC error reply, as the endpoint writes them
     */
    MethodGate(String mcpPath, Set<String> metadataPaths, Function<ErrorReply, byte[]> body) {
        this.mcpPath = mcpPath;
        this.metadataPaths = Set.copyOf(metadataPaths);
        this.body = body;
    }

    /**
     * The rule, by the request's method (case-sensitive, as HTTP says) and its path within the server; empty
     * for a request the servlets serve.
     */
    static Optional<Refusal> refusal(String mcpPath, Set<String> metadataPaths, String method, String path) {
        if (path.equals(mcpPath)) {
            // Stateless: no server-initiated stream to open with GET (the spec allows 405), no session to DELETE.
            return method.equals("POST") ? Optional.empty()
                    : Optional.of(new Refusal(405, "POST", "Method Not Allowed: this stateless server takes POST only"));
        }
        if (PROBES.contains(path)) {
            return PROBE_METHODS.contains(method) ? Optional.empty()
                    : Optional.of(new Refusal(405, "GET, HEAD", "Method Not Allowed: " + path + " takes GET and HEAD only"));
        }
        if (metadataPaths.contains(path)) {
            return METADATA_METHODS.contains(method) ? Optional.empty()
                    : Optional.of(new Refusal(405, "GET, HEAD, OPTIONS", "Method Not Allowed: " + path
                            + " takes GET, HEAD and OPTIONS only"));
        }
        return Optional.of(new Refusal(404, null, "Not Found: the MCP endpoint is " + mcpPath));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Optional<Refusal> refused = refusal(mcpPath, metadataPaths, request.getMethod(), Request.getPathInContext(request));
        if (refused.isEmpty()) {
            return super.handle(request, response, callback);
        }
        Refusal refusal = refused.get();
        byte[] bytes = body.apply(ErrorReply.of(null, ErrorReply.INVALID_REQUEST, refusal.message(), null));
        response.setStatus(refusal.status());
        if (refusal.allow() != null) {
            response.getHeaders().put(HttpHeader.ALLOW, refusal.allow());
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
        return true;
    }
}
