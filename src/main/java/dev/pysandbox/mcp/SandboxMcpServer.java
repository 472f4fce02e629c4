package dev.pysandbox.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.SortedSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;

import dev.pysandbox.bridge.CodeMode;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.mcp.transport.StdioServerTransport;
import dev.pysandbox.packages.AutoInstaller;
import dev.pysandbox.packages.PackageFolder;
import dev.pysandbox.supervisor.Sandbox;

/**
 * The MCP edge: our stdio transport (the SDK's drops calls and dies on bad input; see shared/notes), the
 * SDK's server for the protocol itself and schema validation, and the two tools. What the sandbox tells its
 * operator's users (a worker replaced, the OS layer missing, a session ended) also goes to the client as MCP
 * log messages; the server's own log stays on stderr.
 */
public final class SandboxMcpServer {
    public static final String NAME = "python-sandbox-mcp";
    private static final long PACKAGE_CHECK_SECONDS = 2;

    private SandboxMcpServer() {
    }

    /** Serves MCP on the given streams until the client closes its end, then returns. */
    public static void serve(ServerConfig config, Sandbox sandbox, CodeMode codeMode, InputStream in, OutputStream out)
            throws IOException, InterruptedException {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        // At EOF, calls in flight still get their answers: the longest a call can take is its timeout plus the kill grace.
        Duration drain = config.maxTimeout().plus(config.killGrace()).plusSeconds(5);
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "mcp-timers");
            thread.setDaemon(true);
            return thread;
        });
        StdioServerTransport transport = new StdioServerTransport(json, in, out, config.maxLineBytes(), drain);
        Consumer<Notice> notices = notice -> transport.clientLog().send(toLogMessage(notice));
        AutoInstaller autoInstaller = config.autoInstall() ? new AutoInstaller(config.packagesDir(), notices) : null;
        CodeRunner runner = new CodeRunner(sandbox, config.maxCodeBytes(), config.progressInterval(), timers,
                autoInstaller == null ? modules -> { } : autoInstaller::request);
        ExecuteCodeTool executeCode = new ExecuteCodeTool(runner, config, codeMode);
        PackageFolder packages = new PackageFolder(config.packagesDir());
        SortedSet<String> installed = packages.modules();
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo(NAME, version())
                .instructions("Run Python code safely with execute_code (structured result) or run_python (text);"
                        + " validate_code checks code without running it. Code runs in an isolated GraalPy interpreter"
                        + " without host file, network or process access; its files live in a private in-memory"
                        + " scratch directory." + (codeMode.enabled() ? " With execute_code, code can call the tools of"
                        + " other MCP servers through context.tools (see its description)." : ""))
                .capabilities(ServerCapabilities.builder().tools(true).logging().build())
                .tools(executeCode.specification(json, installed),
                        new RunPythonTool(runner, config).specification(json),
                        new ValidateCodeTool(runner, codeMode).specification(json))
                .build();
        // An install while the server runs changes what code may import: the description says so, and
        // replacing the tool tells clients with notifications/tools/list_changed.
        PackageWatch packageWatch = new PackageWatch(packages, installed,
                now -> server.addTool(executeCode.specification(json, now)));
        timers.scheduleWithFixedDelay(packageWatch, PACKAGE_CHECK_SECONDS, PACKAGE_CHECK_SECONDS, TimeUnit.SECONDS);
        // Code mode's tools are found after the server answers: the description names them once they are, and
        // replacing the tool tells clients so (notifications/tools/list_changed).
        codeMode.onChange(() -> timers.execute(() -> {
            try {
                server.addTool(executeCode.specification(json, packageWatch.installed()));
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(SandboxMcpServer.class).warn("could not update the tool list: {}", e.toString());
            }
        }));
        // Only now: on two cores, worker JVMs starting beside the server would slow its first answers.
        sandbox.start(notices);
        codeMode.start();
        transport.awaitTermination();
        server.close();
        codeMode.close();
        if (autoInstaller != null) {
            autoInstaller.close();
        }
        timers.shutdownNow();
    }

    private static LoggingMessageNotification toLogMessage(Notice notice) {
        LoggingLevel level = switch (notice.level()) {
            case DEBUG -> LoggingLevel.DEBUG;
            case INFO -> LoggingLevel.INFO;
            case WARNING -> LoggingLevel.WARNING;
            case ERROR -> LoggingLevel.ERROR;
        };
        return new LoggingMessageNotification(level, NAME, notice.text());
    }

    public static String version() {
        String version = SandboxMcpServer.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
