package dev.pysandbox.bridge;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import reactor.core.publisher.Mono;

import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.process.RestartBackoff;

/**
 * One downstream MCP server: its client, its tools as last discovered, and its health. Started in the
 * background at server start; when it dies, the calls in flight fail at once ({@link StdioDownstream} sees
 * the exit and the client is closed, which the SDK alone would not do) and the next call starts it again,
 * with a back-off so that a server that cannot start is not started in a loop. A call is never retried: it
 * may have had side effects.
 */
final class Downstream implements ToolCatalog.Server {
    private static final Logger log = LoggerFactory.getLogger(Downstream.class);
    private static final String DEPTH_META = "dev.pysandbox/depth";
    private static final int MAX_RESTARTS = 5;
    private static final Duration RESTART_WINDOW = Duration.ofMinutes(10);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    /** Told when this server's tools change (discovered, refreshed, lost). */
    interface Listener {
        void toolsChanged(Downstream server);
    }

    private final ServerEntry entry;
    private final McpJsonMapper json;
    private final Duration startupTimeout;
    private final Duration requestTimeout;
    private final int depth;
    private final String selfName;
    private final String version;
    private final Listener listener;
    private final Semaphore permits;
    private final Deque<Long> restarts = new ArrayDeque<>();
    private volatile Map<String, Tool> tools = Map.of();
    private volatile McpAsyncClient client;
    /** The child of a stdio server, from the moment a start begins: {@link #close()} ends it even mid-start. */
    private StdioDownstream stdio;
    /** Set by {@link #close()}: the server is ending, and this server is never started again. */
    private boolean closed;
    private volatile String refusal;
    private volatile String lastFailure;
    private CompletableFuture<McpAsyncClient> starting;
    private final RestartBackoff backoff = new RestartBackoff(MAX_BACKOFF);
    private long notBeforeNanos;

    Downstream(ServerEntry entry, McpJsonMapper json, Duration startupTimeout, Duration requestTimeout,
            int maxConcurrent, int depth, String selfName, String version, Listener listener) {
        this.entry = entry;
        this.json = json;
        this.startupTimeout = startupTimeout;
        this.requestTimeout = requestTimeout;
        this.permits = new Semaphore(maxConcurrent, true);
        this.depth = depth;
        this.selfName = selfName;
        this.version = version;
        this.listener = listener;
    }

    @Override
    public ServerEntry entry() {
        return entry;
    }

    String name() {
        return entry.name();
    }

    /** The server's tools as last discovered, by name; empty until it has started. */
    @Override
    public Map<String, Tool> tools() {
        return tools;
    }

    /** Why this server is not available, for the operator's log; null when it is. */
    @Override
    public String problem() {
        return refusal != null ? refusal : client == null ? lastFailure : null;
    }

    /** Starts the server if it is not running, waiting at most {@code wait} for it to be ready. */
    @Override
    public McpAsyncClient ready(Duration wait) throws ToolFailure {
        if (refusal != null) {
            throw new ToolFailure(ToolErrorKind.SERVER_UNAVAILABLE, "server '" + name() + "' was refused: " + refusal);
        }
        McpAsyncClient running = client;
        if (running != null) {
            return running;
        }
        CompletableFuture<McpAsyncClient> start = start();
        try {
            return start.get(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ToolFailure(ToolErrorKind.TIMEOUT, "server '" + name() + "' is still starting");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolFailure(ToolErrorKind.TIMEOUT, "the call ended while server '" + name() + "' was starting");
        } catch (ExecutionException e) {
            throw new ToolFailure(ToolErrorKind.SERVER_UNAVAILABLE, "server '" + name() + "' is not available"
                    + (e.getCause() instanceof ToolFailure f ? ": " + f.getMessage() : ""));
        }
    }

    /** Begins a start unless one is under way or the back-off forbids it. */
    synchronized CompletableFuture<McpAsyncClient> start() {
        if (closed) {
            return CompletableFuture.failedFuture(new ToolFailure(ToolErrorKind.SERVER_UNAVAILABLE, "the server is ending"));
        }
        if (client != null) {
            return CompletableFuture.completedFuture(client);
        }
        if (starting != null) {
            return starting;
        }
        long now = System.nanoTime();
        while (!restarts.isEmpty() && now - restarts.peekFirst() > RESTART_WINDOW.toNanos()) {
            restarts.removeFirst();
        }
        if (now < notBeforeNanos || restarts.size() >= MAX_RESTARTS) {
            return CompletableFuture.failedFuture(new ToolFailure(ToolErrorKind.SERVER_UNAVAILABLE,
                    restarts.size() >= MAX_RESTARTS ? "it was started " + MAX_RESTARTS + " times in 10 minutes"
                            : "it failed to start; retrying later"));
        }
        restarts.addLast(now);
        CompletableFuture<McpAsyncClient> future = new CompletableFuture<>();
        starting = future;
        Thread.ofVirtual().name("mcp-start-" + name()).start(() -> {
            try {
                McpAsyncClient started = connect();
                boolean late;
                synchronized (this) {
                    late = closed;
                    client = late ? null : started;
                    starting = null;
                    backoff.succeeded();
                }
                if (late) {
                    // close() has ended the child already; this only fails what waits for the client.
                    started.close();
                    future.completeExceptionally(new ToolFailure(ToolErrorKind.SERVER_UNAVAILABLE, "the server is ending"));
                    return;
                }
                future.complete(started);
            } catch (ToolFailure | RuntimeException e) {
                synchronized (this) {
                    starting = null;
                    notBeforeNanos = System.nanoTime() + backoff.failed().toNanos();
                }
                lastFailure = e.getMessage();
                log.warn("code mode: server '{}' did not start: {}", name(), e.getMessage());
                future.completeExceptionally(e);
                listener.toolsChanged(this);
            }
        });
        return future;
    }

    private McpAsyncClient connect() throws ToolFailure {
        AtomicReference<McpAsyncClient> self = new AtomicReference<>();
        StdioDownstream[] stdio = new StdioDownstream[1];
        McpClientTransport transport = switch (entry.kind()) {
            case STDIO -> stdio[0] = new StdioDownstream(entry, json, depth, () -> lost(self.get(), stdio[0]));
            case HTTP -> streamableHttp();
            case SSE -> sse();
        };
        synchronized (this) {
            if (closed) {
                throw new ToolFailure(ToolErrorKind.SERVER_UNAVAILABLE, "the server is ending");
            }
            this.stdio = stdio[0];
        }
        McpAsyncClient started = McpClient.async(transport)
                .clientInfo(new Implementation(selfName, version))
                // No sampling, elicitation or roots: a downstream server cannot call back through us.
                .capabilities(ClientCapabilities.builder().build())
                .requestTimeout(requestTimeout)
                .initializationTimeout(startupTimeout)
                .toolsChangeConsumer(changed -> {
                    discovered(changed);
                    return Mono.empty();
                })
                .build();
        self.set(started);
        try {
            InitializeResult init = started.initialize().block(startupTimeout.plusSeconds(1));
            if (init != null && init.serverInfo() != null && selfName.equals(init.serverInfo().name())) {
                refusal = "it reports itself as " + selfName + ": code mode must not call its own server (recursion)";
                throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, refusal);
            }
            List<Tool> offered = started.listTools().block(startupTimeout).tools();
            log.info("code mode: server '{}' started ({} tools)", name(), offered.size());
            discovered(offered);
            return started;
        } catch (ToolFailure e) {
            started.close();
            throw e;
        } catch (RuntimeException e) {
            started.close();
            if (stdio[0] != null) {
                stdio[0].stop();
            }
            String tail = stdio[0] == null ? "" : stdio[0].stderrTail();
            throw new IllegalStateException(McpError.findRootCause(e).getMessage()
                    + (tail.isEmpty() ? "" : " (its stderr: " + tail + ")"), e);
        }
    }

    private McpClientTransport streamableHttp() {
        URI url = entry.url();
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return HttpClientStreamableHttpTransport.builder(url.getScheme() + "://" + url.getRawAuthority())
                .endpoint(path + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()))
                .jsonMapper(json)
                .connectTimeout(startupTimeout)
                // The URL comes from the operator only; a redirect could send our headers elsewhere.
                .customizeClient(client -> client.followRedirects(HttpClient.Redirect.NEVER))
                .maxResponseSize(StdioDownstream.MAX_MESSAGE_BYTES)
                .httpRequestCustomizer((request, method, uri, body, context) -> entry.headers().forEach(request::header))
                .build();
    }

    private McpClientTransport sse() {
        URI url = entry.url();
        return HttpClientSseClientTransport.builder(url.getScheme() + "://" + url.getRawAuthority())
                .sseEndpoint(url.getRawPath())
                .jsonMapper(json)
                .customizeClient(client -> client.followRedirects(HttpClient.Redirect.NEVER))
                .maxResponseSize(StdioDownstream.MAX_MESSAGE_BYTES)
                .httpRequestCustomizer((request, method, uri, body, context) -> entry.headers().forEach(request::header))
                .build();
    }

    private void discovered(List<Tool> list) {
        Map<String, Tool> byName = new LinkedHashMap<>();
        for (Tool tool : list) {
            byName.put(tool.name(), tool);
        }
        tools = Map.copyOf(byName);
        listener.toolsChanged(this);
    }

    /** The child exited: fail the calls in flight now instead of at their timeouts, and start again on demand. */
    private void lost(McpAsyncClient which, StdioDownstream stdio) {
        synchronized (this) {
            if (which == null || client != which) {
                if (which != null) {
                    which.close(); // died while starting: fail initialize now
                }
                return;
            }
            client = null;
        }
        Integer code = stdio == null ? null : stdio.exitCode();
        lastFailure = "it exited" + (code == null ? "" : " with code " + code);
        log.warn("code mode: server '{}' {}; it restarts on the next call{}", name(), lastFailure,
                stdio == null || stdio.stderrTail().isEmpty() ? "" : " (its stderr: " + stdio.stderrTail() + ")");
        which.close();
    }

    /**
     * Calls a tool. Waits for a permit (at most {@code code-mode.max-concurrent-per-server} calls run at once
     * on this server) and for the answer, within {@code timeout} in all.
     *
     * @param abandon registers the call in flight, so the execution can drop it when it ends
     */
    CallToolResult call(McpAsyncClient running, String tool, Map<String, Object> arguments, Duration timeout,
            Consumer<CompletableFuture<?>> abandon) throws ToolFailure {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!permits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new ToolFailure(ToolErrorKind.TIMEOUT, "server '" + name() + "' was busy with other calls"
                        + " for the whole " + seconds(timeout) + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolFailure(ToolErrorKind.TIMEOUT, "the call ended while it waited");
        }
        try {
            CallToolRequest request = CallToolRequest.builder(tool).arguments(arguments)
                    .meta(Map.of(DEPTH_META, depth + 1)).build();
            CompletableFuture<CallToolResult> answer = running.callTool(request).toFuture();
            abandon.accept(answer);
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new ToolFailure(ToolErrorKind.TIMEOUT, "no answer within " + seconds(timeout) + " s");
        } catch (InterruptedException | CancellationException e) {
            throw new ToolFailure(ToolErrorKind.TIMEOUT, "the call ended before the tool answered");
        } catch (ExecutionException e) {
            throw classify(e.getCause(), running);
        } finally {
            permits.release();
        }
    }

    /** A remote server's connection failed: drop the client, so that the next call connects afresh. */
    private void reconnectLater(McpAsyncClient failed) {
        synchronized (this) {
            if (client != failed) {
                return;
            }
            client = null;
        }
        failed.close();
    }

    private ToolFailure classify(Throwable cause, McpAsyncClient running) {
        if (cause instanceof McpError error && error.getJsonRpcError() != null) {
            return new ToolFailure(ToolErrorKind.PROTOCOL_ERROR, "the server answered with error "
                    + error.getJsonRpcError().code() + ": " + ToolResultShape.cut(String.valueOf(error.getJsonRpcError().message()), 500));
        }
        if (McpError.findRootCause(cause) instanceof TimeoutException) {
            return new ToolFailure(ToolErrorKind.TIMEOUT, "no answer in time");
        }
        log.warn("code mode: a call to server '{}' failed: {}", name(), McpError.findRootCause(cause).toString());
        if (entry.kind() != ServerEntry.Kind.STDIO) {
            reconnectLater(running);
        }
        return new ToolFailure(ToolErrorKind.SERVER_UNAVAILABLE, "server '" + name() + "' stopped or could not be reached;"
                + " the call may or may not have run. It is started again on the next call.");
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f", duration.toMillis() / 1000.0);
    }

    /**
     * Stops the server for good; bounded, and a stdio server's process tree is gone when it returns: ended here
     * directly, not through the SDK client's close, which only starts the transport's close and returns.
     */
    void close() {
        McpAsyncClient running;
        StdioDownstream child;
        synchronized (this) {
            closed = true;
            running = client;
            client = null;
            child = stdio;
        }
        if (child != null) {
            child.stop();
        }
        if (running != null) {
            if (child != null) {
                running.close(); // fails the calls still waiting; the transport is stopped already
            } else {
                try {
                    running.closeGracefully().block(Duration.ofSeconds(3));
                } catch (RuntimeException e) {
                    running.close();
                }
            }
        }
    }
}
