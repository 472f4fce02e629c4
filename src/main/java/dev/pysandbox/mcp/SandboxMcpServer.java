package dev.pysandbox.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.function.Consumer;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;

import dev.pysandbox.audit.AuditLog;
import dev.pysandbox.bridge.CodeMode;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.mcp.transport.StdioServerTransport;
import dev.pysandbox.release.Release;
import dev.pysandbox.supervisor.Sandbox;

/**
 * The MCP edge: our stdio transport (the SDK's dies on bad input and drops concurrent answers: README.md,
 * {@code mcp.transport} in the package table), the SDK's server for the protocol itself and schema
 * validation, and the two tools. What the sandbox tells its operator's users (a worker replaced, the OS layer
 * missing, a session ended) also goes to the client as MCP log messages; the server's own log stays on stderr.
 */
public final class SandboxMcpServer {
    private SandboxMcpServer() {
    }

    /** Serves MCP on the given streams until the client closes its end, then returns. */
    public static void serve(ServerConfig config, Sandbox sandbox, CodeMode codeMode, InputStream in, OutputStream out)
            throws IOException, InterruptedException {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        // At EOF, calls in flight still get their answers: the longest a call can take is its timeout plus the kill grace.
        Duration drain = config.maxTimeout().plus(config.killGrace()).plusSeconds(5);
        StdioServerTransport transport = new StdioServerTransport(json, in, out, config.maxLineBytes(), drain);
        Consumer<Notice> notices = notice -> transport.clientLog().send(toLogMessage(notice));
        try (AuditLog audit = AuditTrail.open(config.audit(), json);
                ToolSet tools = new ToolSet(json, config, sandbox, codeMode, notices, AuditTrail.of(audit, json))) {
            McpSyncServer server = McpServer.sync(transport)
                    .serverInfo(Release.NAME, Release.version())
                    .instructions(ToolSet.instructions(codeMode))
                    .capabilities(ServerCapabilities.builder().tools(true).logging().resources(false, false)
                            .extensions(ResultView.capability()).build())
                    .tools(tools.entries().stream().map(SandboxMcpServer::specification).toList())
                    .resources(new SyncResourceSpecification(ResultView.resource(),
                            (exchange, request) -> ResultView.read()))
                    .build();
            tools.watch(entry -> server.addTool(specification(entry)));
            // Only now: on two cores, worker JVMs starting beside the server would slow its first answers.
            sandbox.start(notices);
            codeMode.start();
            transport.awaitTermination();
            server.close();
            codeMode.close();
        }
    }

    private static SyncToolSpecification specification(ToolSet.Entry entry) {
        return SyncToolSpecification.builder().tool(entry.tool())
                .callHandler((exchange, request) -> entry.handler().call(Caller.stdio(exchange::progressNotification), request))
                .build();
    }

    private static LoggingMessageNotification toLogMessage(Notice notice) {
        LoggingLevel level = switch (notice.level()) {
            case DEBUG -> LoggingLevel.DEBUG;
            case INFO -> LoggingLevel.INFO;
            case WARNING -> LoggingLevel.WARNING;
            case ERROR -> LoggingLevel.ERROR;
        };
        return new LoggingMessageNotification(level, Release.NAME, notice.text());
    }
}
