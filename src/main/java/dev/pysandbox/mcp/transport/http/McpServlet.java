package dev.pysandbox.mcp.transport.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.annotation.JsonInclude;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import reactor.core.publisher.Mono;

import dev.pysandbox.auth.Authenticator;
import dev.pysandbox.auth.Principal;
import dev.pysandbox.config.HttpSettings;
import dev.pysandbox.mcp.transport.ErrorReply;
import dev.pysandbox.mcp.transport.LineDecoder;

/**
 * Stateless Streamable HTTP at the MCP endpoint (POST only: {@link MethodGate} refuses every other method),
 * over the SDK's stateless server (which does the protocol and the schema checks). Ours rather than the SDK's
 * servlet, which puts Java stack traces in error bodies, accepts any {@code MCP-Protocol-Version}, blocks a
 * container thread per call and never notices a client leaving.
 *
 * <p>No {@code Mcp-Session-Id} is minted: any request may reach any replica, and sessions in the Python sense
 * are the {@code session_id} argument, which the load balancer routes on. A {@code tools/call} runs on a
 * thread of its own; when the client accepts event streams its answer is one, with keep-alive comments and
 * progress notifications before the response. A client that disconnects cancels its call, as the 2026-07-28
 * revision says; so does {@code notifications/cancelled} from the same principal.
 */
public final class McpServlet extends HttpServlet implements McpStatelessServerTransport {
    private static final Logger log = LoggerFactory.getLogger(McpServlet.class);
    static final String PROTOCOL_HEADER = RequestCheck.PROTOCOL_HEADER;
    private static final String CANCELLED = "notifications/cancelled";
    /** The MDC key logback.xml writes the calling principal from. */
    private static final String PRINCIPAL_MDC = "principal";

    /** One tool call in flight: its answer, and the thread running it once it runs. */
    private static final class Running {
        final CallResponse response;
        private Thread thread;
        private boolean stopped;
        private boolean done;

        Running(CallResponse response) {
            this.response = response;
        }

        /** Called by the call's thread; false if the call was stopped before it began. */
        synchronized boolean begin() {
            thread = Thread.currentThread();
            return !stopped;
        }

        /** Called by the call's thread when it is over; it is not interrupted after this returns. */
        synchronized void end() {
            done = true;
            thread = null;
        }

        synchronized boolean done() {
            return done;
        }

        /** Interrupts the call's thread (the sandbox then stops the code); false if it had already ended. */
        synchronized boolean stop() {
            if (done || stopped) {
                return false;
            }
            stopped = true;
            if (thread != null) {
                thread.interrupt();
            }
            return true;
        }
    }

    private final transient McpJsonMapper json;
    private final transient HttpSettings settings;
    private final transient RequestCheck checks;
    private final transient Executor calls;
    private final transient ScheduledExecutorService timers;
    private final transient Semaphore slots;
    private final transient Map<String, Running> running = new ConcurrentHashMap<>();
    /** Calls whose exchange is not complete yet, answer included: what a graceful stop waits for. */
    private final transient AtomicInteger open = new AtomicInteger();
    private transient volatile McpStatelessServerHandler handler;
    private volatile boolean draining;

    /**
     * @param authenticator who presents a request's token ({@code http.auth})
     * @param resource      the server as an OAuth protected resource; null unless {@code http.auth=oauth}
     * @param calls         runs tool calls; each blocks its thread for the call's duration
     */
    public McpServlet(McpJsonMapper json, HttpSettings settings, Authenticator authenticator,
            ProtectedResource resource, Executor calls, ScheduledExecutorService timers) {
        this.json = json;
        this.settings = settings;
        this.checks = new RequestCheck(new OriginCheck(settings.allowedHosts(), settings.allowedOrigins()),
                authenticator, resource == null ? BearerChallenge.REALM : new BearerChallenge(resource),
                new LineDecoder(json), settings.maxRequestBytes());
        this.calls = calls;
        this.timers = timers;
        this.slots = new Semaphore(settings.maxInFlight());
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler mcpHandler) {
        this.handler = mcpHandler;
    }

    @Override
    public List<String> protocolVersions() {
        return RequestCheck.PROTOCOL_VERSIONS;
    }

    /** Refuses new calls from now on; calls in flight go on (see {@link #inFlight()}). */
    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> draining = true);
    }

    public void drain() {
        draining = true;
    }

    public boolean draining() {
        return draining;
    }

    /** Tool calls running now or still sending their answers. */
    public int inFlight() {
        return open.get();
    }

    /** Stops every call in flight (their clients get no answer). */
    public void cancelAll() {
        running.values().forEach(call -> stop(call, "server stopping"));
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (draining) {
            response.setHeader("Retry-After", "1");
            error(response, 503, ErrorReply.of(null, ErrorReply.INTERNAL_ERROR, "Server is shutting down; retry", null));
            return;
        }
        RequestCheck.Admitted admitted;
        switch (checks.head(new RequestCheck.Head(request.getHeader("Host"), request.getHeader("Origin"),
                request.getHeader("Authorization"), request.getHeader(PROTOCOL_HEADER), request.getContentType(),
                request.getHeader("Accept"), request.getContentLengthLong(), request.getRemoteAddr()))) {
            case RequestCheck.Refused refused -> {
                if (request.getContentLengthLong() != 0) {
                    // Refused before its body was read: the connection must not carry another request, whose bytes
                    // would follow an unread body (a client reusing it saw its next request lost).
                    response.setHeader("Connection", "close");
                }
                refuse(response, refused);
                return;
            }
            case RequestCheck.Admitted passed -> admitted = passed;
        }
        String body = readBody(request, response);
        if (body == null) {
            return;
        }
        switch (checks.body(body)) {
            case RequestCheck.Refused refused -> refuse(response, refused);
            case RequestCheck.Message message -> {
                Optional<RequestCheck.Refused> forbidden = checks.scopes(message.message(), admitted);
                if (forbidden.isPresent()) {
                    refuse(response, forbidden.get());
                } else {
                    dispatch(message.message(), admitted, request, response);
                }
            }
        }
    }

    /** The body, or null once the request has been refused for its size. */
    private String readBody(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int limit = checks.maxBodyBytes();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = request.getInputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (bytes.size() + n > limit) {
                    refuse(response, checks.tooLarge());
                    return null;
                }
                bytes.write(buffer, 0, n);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Whether a request to another of the server's paths ({@code /metrics}) passes the MCP endpoint's own Host,
     * Origin and bearer-token checks; a refused one has been answered (401 without a known token).
     */
    boolean admits(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (checks.head(new RequestCheck.Head(request.getHeader("Host"), request.getHeader("Origin"),
                request.getHeader("Authorization"), null, null, null, 0, request.getRemoteAddr()))
                instanceof RequestCheck.Refused refused) {
            refuse(response, refused);
            return false;
        }
        return true;
    }

    private void refuse(HttpServletResponse response, RequestCheck.Refused refused) throws IOException {
        refused.headers().forEach(response::setHeader);
        error(response, refused.status(), refused.reply());
    }

    private void dispatch(McpSchema.JSONRPCMessage message, RequestCheck.Admitted caller,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        switch (message) {
            case McpSchema.JSONRPCNotification notification -> {
                if (CANCELLED.equals(notification.method())) {
                    cancel(caller.principal(), notification.params());
                } else {
                    handler.handleNotification(context(caller, (method, params) -> { }), notification).block();
                }
                response.setStatus(HttpServletResponse.SC_ACCEPTED);
            }
            case McpSchema.JSONRPCResponse ignored ->
                // This server sends no requests, so a response answers nothing.
                response.setStatus(HttpServletResponse.SC_ACCEPTED);
            case McpSchema.JSONRPCRequest call when McpSchema.METHOD_TOOLS_CALL.equals(call.method()) ->
                startCall(call, caller, request, response);
            case McpSchema.JSONRPCRequest other -> {
                // initialize, tools/list, ping: quick, answered on this thread.
                McpSchema.JSONRPCResponse answer = handler.handleRequest(context(caller, (method, params) -> { }), other)
                        .block();
                byte[] bytes = json.writeValueAsBytes(answer);
                response.setStatus(HttpServletResponse.SC_OK);
                response.setContentType("application/json");
                response.setCharacterEncoding("UTF-8");
                response.setContentLength(bytes.length);
                response.getOutputStream().write(bytes);
            }
            default -> error(response, 400, ErrorReply.of(null, ErrorReply.INVALID_REQUEST, "Invalid Request", null));
        }
    }

    private void startCall(McpSchema.JSONRPCRequest call, RequestCheck.Admitted caller,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean acceptsEvents = caller.acceptsEvents();
        if (!slots.tryAcquire()) {
            response.setHeader("Retry-After", "1");
            error(response, 503, ErrorReply.of(call.id(), ErrorReply.INTERNAL_ERROR, "Server busy: "
                    + settings.maxInFlight() + " calls in flight (setting http.max-in-flight); retry", null));
            return;
        }
        String key = caller.principal().key() + "\u0000" + idKey(call.id());
        open.incrementAndGet();
        AsyncContext async = request.startAsync();
        async.setTimeout(0);
        CallResponse answer = new CallResponse(async, response, acceptsEvents);
        if (!retryable(call)) {
            answer.start();
        }
        McpTransportContext context = context(caller, (method, params) -> notify(answer, method, params),
                answer::start);
        Running self = new Running(answer);
        // A duplicate id replaces the older entry: cancellation then reaches the newest call.
        running.put(key, self);
        calls.execute(() -> {
            // The principal is in every log line written on the call's thread (logback.xml).
            MDC.put(PRINCIPAL_MDC, caller.principal().name());
            try {
                if (self.begin()) {
                    run(call, context, answer);
                }
            } finally {
                MDC.remove(PRINCIPAL_MDC);
                self.end();
                running.remove(key, self);
                slots.release();
                Thread.interrupted();
            }
        });
        async.addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                open.decrementAndGet();
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                stop(self, "timed out");
            }

            @Override
            public void onError(AsyncEvent event) {
                stop(self, "client connection failed");
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
            }
        });
        long every = settings.keepAlive().toMillis();
        if (acceptsEvents && every > 0) {
            // Throwing ends a fixed-rate task: that is how the ticks stop with the call.
            timers.scheduleAtFixedRate(() -> {
                if (self.done() || !answer.keepAlive()) {
                    if (!self.done()) {
                        stop(self, "client went away");
                    }
                    throw new CancellationException("stream over");
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Whether remote mode's proxy may send this call to another replica if this one dies before its answer begins
     * (HAProxy's layer-7 retry, deploy/haproxy/haproxy.cfg): a call without a session_id, whose answer therefore
     * does not start until it has one, a notification to send, a keep-alive to keep the stream open, or its code
     * calls one of the operator's tools. A call naming a session starts its answer at once: on another replica its
     * session does not exist, so it must fail rather than run there.
     */
    private static boolean retryable(McpSchema.JSONRPCRequest call) {
        return !(call.params() instanceof Map<?, ?> params && params.get("arguments") instanceof Map<?, ?> arguments
                && arguments.get("session_id") != null);
    }

    private void run(McpSchema.JSONRPCRequest call, McpTransportContext context, CallResponse answer) {
        McpSchema.JSONRPCResponse reply;
        try {
            reply = handler.handleRequest(context, call).contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            log.warn("tools/call {} failed inside the server: {}", call.id(), e.toString());
            reply = null;
        }
        if (Thread.currentThread().isInterrupted()) {
            // Cancelled: whoever cancelled has ended the exchange, and the answer is for nobody.
            log.debug("tools/call {} cancelled", call.id());
            return;
        }
        try {
            byte[] bytes = reply != null ? json.writeValueAsBytes(reply)
                    : json.writeValueAsBytes(ErrorReply.of(call.id(), ErrorReply.INTERNAL_ERROR, "Internal error", null));
            boolean sent = answer.answer(bytes);
            log.debug("tools/call {} answered ({} bytes{})", call.id(), bytes.length, sent ? "" : ", client gone");
        } catch (IOException e) {
            log.warn("could not encode the answer to {}: {}", call.id(), e.toString());
            answer.abandon();
        }
    }

    private void notify(CallResponse answer, String method, Object params) {
        if (!answer.events()) {
            return;
        }
        try {
            answer.notification(json.writeValueAsBytes(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, method, params)));
        } catch (IOException e) {
            log.debug("notification {} not sent: {}", method, e.toString());
        }
    }

    private void cancel(Principal principal, Object params) {
        Object requestId = params instanceof Map<?, ?> map ? map.get("requestId") : null;
        Running call = requestId == null ? null : running.get(principal.key() + "\u0000" + idKey(requestId));
        if (call != null) {
            stop(call, "cancelled by the client");
        }
    }

    private void stop(Running call, String why) {
        if (call != null && call.stop()) {
            log.info("stopping a tool call: {}", why);
            call.response.abandon();
        }
    }

    private McpTransportContext context(RequestCheck.Admitted caller, BiConsumer<String, Object> notifications) {
        return context(caller, notifications, () -> { });
    }

    private McpTransportContext context(RequestCheck.Admitted caller, BiConsumer<String, Object> notifications,
            Runnable unrepeatable) {
        return McpTransportContext.create(Map.of(HttpCaller.CONTEXT_KEY,
                new HttpCaller(caller.principal(), caller.scopes(), notifications, unrepeatable)));
    }

    /**
     * The bytes of an HTTP-level error as a JSON-RPC error response. Unlike stdio's, it leaves {@code id} out
     * when it is unknown: the MCP schema allows no {@code null} id there. {@link MethodGate} writes its
     * refusals with it too.
     */
    byte[] errorBody(ErrorReply reply) {
        try {
            return json.writeValueAsBytes(new ErrorBody(reply.jsonrpc(), reply.id(), reply.error()));
        } catch (IOException e) {
            throw new UncheckedIOException("a JSON-RPC error reply could not be written", e);
        }
    }

    private void error(HttpServletResponse response, int status, ErrorReply reply) throws IOException {
        byte[] bytes = errorBody(reply);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    private record ErrorBody(String jsonrpc, @JsonInclude(JsonInclude.Include.NON_NULL) Object id, ErrorReply.Body error) {
    }

    /** Jackson reads small integers as Integer and large ones as Long; 5 and 5L must meet. */
    private static String idKey(Object id) {
        return id instanceof Number n ? "n" + n.longValue() : "s" + id;
    }
}
