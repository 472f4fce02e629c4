package dev.pysandbox.mcp.transport.http;

import java.util.Set;
import java.util.function.BiConsumer;

import dev.pysandbox.auth.Principal;
import dev.pysandbox.auth.Scope;

/**
 * What the HTTP transport tells a tool about the request it answers, through the SDK's transport context
 * under {@link #CONTEXT_KEY}: the authenticated principal and its scopes, and a way to send the request's client
 * a notification (progress) on the request's own event stream.
 *
 * @param principal     who the bearer token names; {@link Principal#ANONYMOUS} with {@code http.auth=none}
 * @param scopes        what the token allows (code mode's tools need {@link Scope#TOOLS})
 * @param notifications (method, params) to the client; dropped when the answer is plain JSON
 * @param unrepeatable  starts the answer now: the call has done something outside its sandbox and must not be
 *                      retried by a proxy (one retries only a request whose answer has not begun)
 */
public record HttpCaller(Principal principal, Set<Scope> scopes, BiConsumer<String, Object> notifications,
        Runnable unrepeatable) {
    public static final String CONTEXT_KEY = "dev.pysandbox/http-caller";

    public HttpCaller {
        scopes = Set.copyOf(scopes);
    }
}
