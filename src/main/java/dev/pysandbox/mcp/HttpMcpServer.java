package dev.pysandbox.mcp;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;

import dev.pysandbox.audit.AuditLog;
import dev.pysandbox.auth.Authenticator;
import dev.pysandbox.auth.BearerTokens;
import dev.pysandbox.auth.oauth.JwtAccessTokens;
import dev.pysandbox.bridge.CodeMode;
import dev.pysandbox.config.AuthMode;
import dev.pysandbox.config.HttpSettings;
import dev.pysandbox.config.OAuthSettings;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.mcp.transport.http.HttpCaller;
import dev.pysandbox.mcp.transport.http.HttpEndpoint;
import dev.pysandbox.mcp.transport.http.McpServlet;
import dev.pysandbox.mcp.transport.http.ProtectedResource;
import dev.pysandbox.metrics.ServerMetrics;
import dev.pysandbox.release.Release;
import dev.pysandbox.supervisor.Sandbox;

/**
 * Remote mode: the same tools over stateless Streamable HTTP, for many clients. The SDK's stateless server
 * does the protocol and the schema checks; {@link McpServlet} is the HTTP edge. Notices that stdio sends its
 * one client as log messages go to the server log here: a stateless server has no channel to every client.
 */
public final class HttpMcpServer {
    private static final Logger log = LoggerFactory.getLogger(HttpMcpServer.class);

    private HttpMcpServer() {
    }

    /**
     * Serves until the process is told to stop (SIGTERM or SIGINT), then drains and returns.
     *
     * @param tokens the callers {@code http.tokens-file} admits, read by {@code Main} before the workers start;
     *               null unless {@code http.auth=token}
     */
    public static void serve(ServerConfig config, Sandbox sandbox, CodeMode codeMode, BearerTokens tokens) throws Exception {
        HttpSettings http = config.http();
        McpJsonMapper json = McpJsonDefaults.getMapper();
        // A call that answers in plain JSON is silent until it ends: the connection must outlive the longest.
        Duration longest = config.maxTimeout().plus(config.killGrace());
        // Bound first: OAuth's resource and audience are the server's URL, whose port may be chosen now.
        HttpEndpoint endpoint = HttpEndpoint.bind(http, longest.plusSeconds(30));
        ProtectedResource resource = http.auth() == AuthMode.OAUTH
                ? new ProtectedResource(endpoint.publicUrl(), http.oauth().issuer()) : null;
        Authenticator authenticator = switch (http.auth()) {
            case NONE -> Authenticator.ANYONE;
            case TOKEN -> tokens;
            case OAUTH -> oauth(http.oauth(), endpoint.publicUrl(), json);
        };
        AtomicInteger callThreads = new AtomicInteger();
        ExecutorService calls = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "mcp-call-" + callThreads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "http-keepalive");
            thread.setDaemon(true);
            return thread;
        });
        McpServlet servlet = new McpServlet(json, http, authenticator, resource, calls, timers);
        Consumer<Notice> notices = HttpMcpServer::logNotice;
        CountDownLatch finished = new CountDownLatch(1);
        // Micrometer's registry answers /metrics (README, "Metrics"); calls are counted as they end.
        ServerMetrics metrics = new ServerMetrics(sandbox::statistics);
        CallObserver counted = call -> metrics.toolCallEnded(call.tool(), call.answer().language(),
                call.answer().status(), call.elapsed(), call.answer().toolCalls());
        try (AuditLog audit = AuditTrail.open(config.audit(), json);
                ToolSet tools = new ToolSet(json, config, sandbox, codeMode, notices,
                        counted.andThen(AuditTrail.of(audit, json)))) {
            // Tool calls run on the servlet's own threads (immediate execution), so that stopping one is
            // interrupting its thread, as over stdio.
            McpStatelessSyncServer server = McpServer.sync(servlet)
                    .serverInfo(Release.NAME, Release.version())
                    .instructions(ToolSet.instructions(codeMode))
                    .capabilities(ServerCapabilities.builder().tools(false).resources(false, false)
                            .extensions(ResultView.capability()).build())
                    .tools(tools.entries().stream().map(HttpMcpServer::specification).toList())
                    .resources(new McpStatelessServerFeatures.SyncResourceSpecification(ResultView.resource(),
                            (context, request) -> ResultView.read()))
                    .immediateExecution(true)
                    .build();
            // Replacing a tool is one step in the stateless server; no client is told (there is no channel).
            tools.watch(entry -> server.addTool(specification(entry)));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    log.info("stop requested: draining");
                    endpoint.drain(longest.plusSeconds(5));
                    // The JVM ends when this hook returns: let the workers be stopped first.
                    finished.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                // Nothing we started may outlive us (SECURITY.md), even if the serving thread is stuck: both are
                // done by now on the normal path, and these calls then find nothing left.
                codeMode.close();
                sandbox.close();
            }, "http-drain"));
            endpoint.start(servlet, sandbox::ready, metrics::scrape, resource, json);
            sandbox.start(notices);
            codeMode.start();
            endpoint.join();
            server.close();
        } finally {
            codeMode.close();
            sandbox.close();
            timers.shutdownNow();
            calls.shutdownNow();
            finished.countDown();
        }
    }

    private static McpStatelessServerFeatures.SyncToolSpecification specification(ToolSet.Entry entry) {
        return McpStatelessServerFeatures.SyncToolSpecification.builder().tool(entry.tool())
                .callHandler((context, request) -> entry.handler().call(caller(context), request))
                .build();
    }

    /** The HTTP caller the servlet put in the request's context; its progress goes on the request's stream. */
    private static Caller caller(McpTransportContext context) {
        if (!(context.get(HttpCaller.CONTEXT_KEY) instanceof HttpCaller http)) {
            throw new IllegalStateException("a tool call without its HTTP caller");
        }
        return new Caller(http.principal(), http.scopes(),
                progress -> http.notifications().accept(McpSchema.METHOD_NOTIFICATION_PROGRESS, progress),
                http.unrepeatable());
    }

    /**
     * {@code http.auth=oauth}: JWTs of the issuer for {@code http.oauth.audience}, else for the server's public
     * URL. The issuer's metadata is read now, so that a wrong issuer shows in the log at start; the server serves
     * anyway (the authorization server may start after it), answering 503 until it can be read.
     */
    private static Authenticator oauth(OAuthSettings settings, URI publicUrl, McpJsonMapper json) {
        JwtAccessTokens tokens = JwtAccessTokens.of(settings,
                settings.audience() != null ? settings.audience() : publicUrl.toString(), json);
        tokens.prepare();
        return tokens;
    }

    private static void logNotice(Notice notice) {
        switch (notice.level()) {
            case DEBUG -> log.debug("{}", notice.text());
            case INFO -> log.info("{}", notice.text());
            case WARNING -> log.warn("{}", notice.text());
            case ERROR -> log.error("{}", notice.text());
        }
    }
}
