package dev.pysandbox.mcp.transport.http;

import java.util.function.BiConsumer;

/**
 * What the HTTP transport tells a tool about the request it answers, through the SDK's transport context
 * under {@link #CONTEXT_KEY}: the authenticated principal, and a way to send the request's client a
 * notification (progress) on the request's own event stream.
 *
 * @param principal     who the bearer token names; {@code anonymous} with {@code http.auth=none}
 * @param notifications (method, params) to the client; dropped when the answer is plain JSON
 * @param unrepeatable  starts the answer now: the call has done something outside its sandbox and must not be
 *                      retried by a proxy (one retries only a request whose answer has not begun)
 */
public record HttpCaller(String principal, BiConsumer<String, Object> notifications, Runnable unrepeatable) {
    public static final String CONTEXT_KEY = "dev.pysandbox/http-caller";
    public static final String ANONYMOUS = "anonymous";
}
