package dev.pysandbox.mcp.transport.http;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.json.McpJsonMapper;

import dev.pysandbox.config.HttpSettings;

/**
 * The HTTP server: embedded Jetty with the MCP endpoint (POST) and two probes (GET and HEAD), {@code /healthz}
 * (the process serves) and {@code /readyz} (calls are served and the server is not draining: what a load
 * balancer and Kubernetes route on), {@code /metrics} (Prometheus's text format, behind the MCP endpoint's
 * own checks and token), and with OAuth the protected resource metadata ({@link ProtectedResource});
 * {@link MethodGate} refuses every other method and path. The port is bound first ({@link #bind}), so that the
 * server's own URL is known before what depends on it (OAuth's audience) is built. {@link #drain} is the graceful
 * stop: not ready, no new calls, calls in flight finish.
 */
public final class HttpEndpoint {
    private static final Logger log = LoggerFactory.getLogger(HttpEndpoint.class);
    /** Where Prometheus scrapes the server's metrics. */
    public static final String METRICS_PATH = "/metrics";

    private final Server server;
    private final ServerConnector connector;
    private final HttpSettings settings;
    private volatile McpServlet mcp;

    /**
     * @param idleTimeout how long a connection may stay silent; longer than any call that answers in plain JSON
     */
    private HttpEndpoint(HttpSettings settings, Duration idleTimeout) {
        this.settings = settings;
        QueuedThreadPool threads = new QueuedThreadPool(200, 4);
        threads.setName("http");
        this.server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setRequestHeaderSize(settings.maxHeaderBytes());
        this.connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        connector.setIdleTimeout(idleTimeout.toMillis());
        server.addConnector(connector);
    }

    /** Binds the port (nothing is answered yet: connections wait until {@link #start}). */
    public static HttpEndpoint bind(HttpSettings settings, Duration idleTimeout) throws IOException {
        HttpEndpoint endpoint = new HttpEndpoint(settings, idleTimeout);
        endpoint.connector.open();
        return endpoint;
    }

    /**
     * The MCP endpoint's URL as clients reach it: {@code http.public-url}, else this server's own address (with
     * the port bound, when {@code http.port} is 0).
     */
    public URI publicUrl() {
        if (settings.publicUrl() != null) {
            return settings.publicUrl();
        }
        return URI.create(boundAddress());
    }

    /**
     * Serves, and prints the bound address on stderr and writes the port to {@code http.port-file}.
     *
     * @param ready    whether the sandbox serves calls (a worker is up, or one that was is being replaced)
     * @param metrics  the metrics in Prometheus's text format, read at each scrape
     * @param resource the protected resource metadata to serve; null unless {@code http.auth=oauth}
     */
    public void start(McpServlet mcp, BooleanSupplier ready, Supplier<String> metrics, ProtectedResource resource,
            McpJsonMapper json) throws Exception {
        this.mcp = mcp;
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder endpoint = new ServletHolder("mcp", mcp);
        endpoint.setAsyncSupported(true);
        context.addServlet(endpoint, settings.path());
        context.addServlet(new ServletHolder("healthz", new Probe(() -> true)), "/healthz");
        context.addServlet(new ServletHolder("readyz", new Probe(() -> !mcp.draining() && ready.getAsBoolean())), "/readyz");
        context.addServlet(new ServletHolder("metrics", new Metrics(mcp, metrics)), METRICS_PATH);
        List<String> metadataPaths = resource == null ? List.of() : resource.servedPaths();
        if (resource != null) {
            byte[] document = json.writeValueAsBytes(resource.document());
            for (String path : metadataPaths) {
                context.addServlet(new ServletHolder(path, new ResourceMetadata(document)), path);
            }
        }
        // Methods are checked before any servlet: the servlet defaults would answer TRACE and OPTIONS.
        MethodGate methods = new MethodGate(settings.path(), Set.copyOf(metadataPaths), mcp::errorBody);
        methods.setHandler(context);
        // On stop, requests already in progress (answers being written) finish before connections close.
        GracefulHandler graceful = new GracefulHandler();
        graceful.setHandler(methods);
        server.setHandler(graceful);
        server.setStopTimeout(10_000);
        server.start();
        int port = connector.getLocalPort();
        System.err.println("python-sandbox-mcp: listening on " + boundAddress());
        log.info("serving MCP over HTTP on {}:{}{} ({})", settings.host(), port, settings.path(), switch (settings.auth()) {
            case NONE -> "no authentication";
            case TOKEN -> "bearer tokens from " + settings.tokens();
            case OAUTH -> "OAuth: tokens of " + settings.oauth().issuer() + ", resource " + publicUrl();
        });
        if (settings.portFile() != null) {
            Path temporary = settings.portFile().resolveSibling(settings.portFile().getFileName() + ".tmp");
            Files.writeString(temporary, Integer.toString(port), StandardCharsets.US_ASCII);
            Files.move(temporary, settings.portFile(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** The MCP endpoint at the address and port bound, an IPv6 address in brackets. */
    private String boundAddress() {
        String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
        return "http://" + host + ":" + port() + settings.path();
    }

    /**
     * The graceful stop: {@code /readyz} turns 503 and new calls are refused at once; calls in flight get up to
     * {@code grace} to finish, then are stopped; then the server closes.
     */
    public void drain(Duration grace) throws InterruptedException {
        if (mcp == null) {
            // Stopped before it served: nothing in flight.
            stop();
            return;
        }
        mcp.drain();
        long deadline = System.nanoTime() + grace.toNanos();
        if (mcp.inFlight() > 0) {
            log.info("draining: waiting for {} call(s) in flight", mcp.inFlight());
        }
        while (mcp.inFlight() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        if (mcp.inFlight() > 0) {
            log.warn("draining: {} call(s) still running after {}; stopping them", mcp.inFlight(), grace);
            mcp.cancelAll();
        }
        stop();
    }

    private void stop() {
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("stopping the HTTP server: {}", e.toString());
        }
    }

    public void join() throws InterruptedException {
        server.join();
    }

    /** The metrics, to a caller the MCP endpoint would admit. */
    private static final class Metrics extends HttpServlet {
        /** Prometheus's text exposition format. */
        private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
        private final transient McpServlet gate;
        private final transient Supplier<String> metrics;

        Metrics(McpServlet gate, Supplier<String> metrics) {
            this.gate = gate;
            this.metrics = metrics;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            if (!gate.admits(request, response)) {
                return;
            }
            response.setStatus(200);
            response.setContentType(CONTENT_TYPE);
            response.getOutputStream().write(metrics.get().getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * The protected resource metadata: public (a client reads it before it has a token), the same for everyone,
     * readable from any web origin (a browser-based client fetches it across origins).
     */
    private static final class ResourceMetadata extends HttpServlet {
        private final byte[] document;

        ResourceMetadata(byte[] document) {
            this.document = document.clone();
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.setStatus(200);
            response.setHeader("Access-Control-Allow-Origin", "*");
            response.setHeader("Cache-Control", "max-age=3600");
            response.setContentType("application/json");
            response.setContentLength(document.length);
            response.getOutputStream().write(document);
        }

        @Override
        protected void doOptions(HttpServletRequest request, HttpServletResponse response) {
            response.setStatus(204);
            response.setHeader("Access-Control-Allow-Origin", "*");
            response.setHeader("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
            response.setHeader("Access-Control-Allow-Headers", "MCP-Protocol-Version");
            response.setHeader("Access-Control-Max-Age", "86400");
        }
    }

    /** 200 or 503 as its condition says; plain text, for people and probes alike. */
    private static final class Probe extends HttpServlet {
        private final transient BooleanSupplier up;

        Probe(BooleanSupplier up) {
            this.up = up;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            boolean ok = up.getAsBoolean();
            response.setStatus(ok ? 200 : 503);
            response.setContentType("text/plain");
            response.getOutputStream().write((ok ? "ok\n" : "unavailable\n").getBytes(StandardCharsets.US_ASCII));
        }
    }
}
