package dev.pysandbox.mcp.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.ProtocolVersions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.pysandbox.wire.BoundedLineReader;

/**
 * Newline-delimited JSON-RPC over a pair of byte streams (normally stdin/stdout), replacing the
 * SDK's {@code StdioServerTransportProvider}, which ends the session on a bad line, drops
 * messages under concurrent sends, drops in-flight responses at EOF and ignores cancellation.
 *
 * <p>One non-daemon thread ("mcp-stdin") reads input; it keeps the JVM alive until stdin ends
 * and in-flight requests have been drained. Responses are written by whichever thread
 * produced them, under a lock.
 */
public final class StdioServerTransport implements McpServerTransportProvider {

    private static final Logger log = LoggerFactory.getLogger(StdioServerTransport.class);

    /** Not in McpSchema's constants; the SDK has no handler for it and only logs a warning. */
    static final String METHOD_NOTIFICATION_CANCELLED = "notifications/cancelled";

    private static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2024_11_05,
            ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);

    private final McpJsonMapper json;
    private final InputStream in;
    private final LineWriter out;
    private final int maxLineBytes;
    private final Duration drainTimeout;
    private final LineDecoder decoder;
    private final InFlightRequests inFlight = new InFlightRequests();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile McpServerSession session;
    private volatile boolean outputClosed;
    private final ClientLog clientLog = new ClientLog(() -> session);

    /**
     * @param maxLineBytes  longest accepted input line in bytes; longer ones are skipped and answered with -32600
     * @param drainTimeout  how long to wait at stdin EOF (or {@link #closeGracefully()}) for in-flight requests
     */
    public StdioServerTransport(McpJsonMapper json, InputStream in, OutputStream out, int maxLineBytes,
            Duration drainTimeout) {
        this.json = Objects.requireNonNull(json, "json");
        this.in = Objects.requireNonNull(in, "in");
        this.out = new LineWriter(Objects.requireNonNull(out, "out"));
        if (maxLineBytes < 1) {
            throw new IllegalArgumentException("maxLineBytes must be positive: " + maxLineBytes);
        }
        if (drainTimeout.isNegative()) {
            throw new IllegalArgumentException("drainTimeout must not be negative: " + drainTimeout);
        }
        this.maxLineBytes = maxLineBytes;
        this.drainTimeout = drainTimeout;
        this.decoder = new LineDecoder(json);
    }

    @Override
    public List<String> protocolVersions() {
        return PROTOCOL_VERSIONS;
    }

    /** Called once by the server builder: creates the only session and starts reading. */
    @Override
    public synchronized void setSessionFactory(McpServerSession.Factory sessionFactory) {
        if (session != null) {
            throw new IllegalStateException("stdio carries exactly one session");
        }
        session = sessionFactory.create(new SessionTransport());
        Thread reader = new Thread(this::readLoop, "mcp-stdin");
        reader.setDaemon(false);
        reader.start();
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession current = session;
        if (current == null) {
            return Mono.error(new IllegalStateException("No session to notify"));
        }
        return current.sendNotification(method, params);
    }

    /** Log messages for the client (MCP {@code notifications/message}). */
    public ClientLog clientLog() {
        return clientLog;
    }

    /** Stops dispatching input, waits up to the drain timeout for in-flight requests, closes the session. */
    @Override
    public Mono<Void> closeGracefully() {
        return Mono.<Void>fromRunnable(() -> shutdown(drainTimeout)).subscribeOn(Schedulers.boundedElastic());
    }

    /**
     * Cancels in-flight requests and closes the session at once. The reader thread, blocked on
     * input, still ends only at EOF: a caller that must exit sooner should call System.exit.
     */
    @Override
    public void close() {
        shutdown(Duration.ZERO);
    }

    /** Returns once input has ended (or close was requested), in-flight work is drained and the session is closed. */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /** Like {@link #awaitTermination()}, but gives up after {@code timeout}; returns whether it terminated. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void readLoop() {
        BoundedLineReader reader = new BoundedLineReader(in, maxLineBytes);
        try {
            while (!stopping.get()) {
                BoundedLineReader.Result next = reader.next();
                // Input that arrives after a shutdown request is dropped: nobody would answer it.
                if (stopping.get() || !process(next)) {
                    break;
                }
            }
        } catch (IOException e) {
            log.warn("Reading input failed; shutting down: {}", e.toString());
        } catch (RuntimeException | Error e) {
            log.error("Reader thread failed; shutting down", e);
        } finally {
            shutdown(drainTimeout);
        }
    }

    /** Returns false at end of input. */
    private boolean process(BoundedLineReader.Result next) {
        switch (next) {
            case BoundedLineReader.Eof eof -> {
                log.info("Input closed; draining {} in-flight message(s)", inFlight.size());
                return false;
            }
            case BoundedLineReader.Oversized oversized -> {
                log.warn("Skipped an input line longer than {} bytes", oversized.limitBytes());
                reply(ErrorReply.of(null, ErrorReply.INVALID_REQUEST,
                        "Invalid Request: line exceeded " + oversized.limitBytes() + " bytes", null));
            }
            case BoundedLineReader.Line line -> dispatch(line.text());
        }
        return true;
    }

    private void dispatch(String line) {
        switch (decoder.decode(line)) {
            case LineDecoder.Blank blank -> {
            }
            case LineDecoder.Rejected rejected -> {
                log.warn("Rejected input line: {} {}", rejected.reply().error().message(),
                        Objects.requireNonNullElse(rejected.reply().error().data(), ""));
                reply(rejected.reply());
            }
            case LineDecoder.Accepted accepted -> route(accepted.message());
        }
    }

    private void route(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCNotification notification
                && METHOD_NOTIFICATION_CANCELLED.equals(notification.method())) {
            cancel(notification.params());
            return;
        }
        Object requestId = message instanceof McpSchema.JSONRPCRequest request ? request.id() : null;
        try {
            inFlight.track(requestId, session.handle(message));
            if (message instanceof McpSchema.JSONRPCNotification notification
                    && McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(notification.method())) {
                clientLog.clientReady();
            }
        } catch (RuntimeException e) {
            // The session should turn failures into error responses itself; this is the last resort
            // that keeps one bad message from taking the reader thread down.
            log.error("Session failed to accept message {}", requestId, e);
            if (requestId != null) {
                reply(ErrorReply.of(requestId, ErrorReply.INTERNAL_ERROR, "Internal error", null));
            }
        }
    }

    private void cancel(Object params) {
        Object requestId = params instanceof Map<?, ?> map ? map.get("requestId") : null;
        if (requestId == null) {
            log.warn("Ignored {} without params.requestId", METHOD_NOTIFICATION_CANCELLED);
        } else if (inFlight.cancel(requestId)) {
            log.info("Cancelled request {}", requestId);
        } else {
            // Normal race: the response may already be on its way.
            log.debug("Cancellation for request {} that is not running", requestId);
        }
    }

    private void reply(ErrorReply reply) {
        try {
            out.writeLine(json.writeValueAsBytes(reply));
        } catch (IOException e) {
            log.warn("Could not write error reply: {}", e.toString());
        }
    }

    private void shutdown(Duration drain) {
        boolean first = stopping.compareAndSet(false, true);
        if (drain.isZero()) {
            // Also cuts short a graceful shutdown already waiting on these requests.
            inFlight.cancelAll();
        }
        if (!first) {
            awaitTerminationUninterruptibly();
            return;
        }
        try {
            if (!inFlight.awaitIdle(drain)) {
                log.warn("{} message(s) still in flight after {}; cancelling them", inFlight.size(), drain);
                inFlight.cancelAll();
            }
        } catch (InterruptedException e) {
            inFlight.cancelAll();
            Thread.currentThread().interrupt();
        } finally {
            McpServerSession current = session;
            if (current != null) {
                current.close();
            }
            terminated.countDown();
            log.info("Transport terminated");
        }
    }

    private void awaitTerminationUninterruptibly() {
        boolean interrupted = false;
        while (terminated.getCount() > 0) {
            try {
                terminated.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The session's view of this transport: outbound messages and (de)serialization. */
    private final class SessionTransport implements McpServerTransport {

        private final AtomicBoolean writeFailed = new AtomicBoolean();

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> write(message));
        }

        private void write(McpSchema.JSONRPCMessage message) {
            if (outputClosed) {
                throw new IllegalStateException("Transport is closed");
            }
            try {
                out.writeLine(json.writeValueAsBytes(message));
            } catch (IOException e) {
                // Usually the client went away; its stdin EOF follows, so one warning is enough.
                if (writeFailed.compareAndSet(false, true)) {
                    log.warn("Writing to output failed: {}", e.toString());
                }
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return json.convertValue(data, typeRef);
        }

        @Override
        public List<String> protocolVersions() {
            return PROTOCOL_VERSIONS;
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(this::close);
        }

        @Override
        public void close() {
            outputClosed = true;
        }
    }
}
