package dev.pysandbox;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;

import dev.pysandbox.cli.CommandLine;
import dev.pysandbox.cli.RunCommand;
import dev.pysandbox.config.ConfigException;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.mcp.SandboxMcpServer;
import dev.pysandbox.supervisor.Sandbox;
import dev.pysandbox.supervisor.WorkerLauncher;
import dev.pysandbox.worker.WorkerSettings;

/**
 * {@code python-sandbox-mcp [serve] [--config FILE] [--KEY=VALUE ...]} serves MCP on stdio;
 * {@code python-sandbox-mcp run (-c CODE | FILE.py | -)} runs one snippet and prints its JSON result.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        // stdout belongs to the protocol (or to `run`'s JSON): anything printed by accident goes to stderr.
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));

        CommandLine commandLine;
        ServerConfig config;
        try {
            commandLine = CommandLine.parse(args);
            config = ServerConfig.from(commandLine.settings());
        } catch (ConfigException e) {
            System.err.println("python-sandbox-mcp: " + e.getMessage());
            System.err.println(CommandLine.USAGE);
            System.exit(2);
            return;
        }
        if (commandLine.help()) {
            System.err.println(CommandLine.USAGE);
            return;
        }
        setLogLevel(config.logLevel());
        Logger log = LoggerFactory.getLogger(Main.class);

        int exitCode = 0;
        try (Sandbox sandbox = new Sandbox(sandboxSettings(config), launcher(config)).start()) {
            if (commandLine.run() != null) {
                exitCode = new RunCommand(commandLine.run(), config).execute(sandbox, new PrintStream(stdout, true, "UTF-8"));
            } else {
                log.info("python-sandbox-mcp {} serving MCP on stdio (run root {})", SandboxMcpServer.version(), config.runRoot());
                SandboxMcpServer.serve(config, sandbox, System.in, stdout);
                log.info("client closed the connection; shutting down");
            }
        }
        // Non-daemon threads of the SDK must not keep a finished server alive.
        System.exit(exitCode);
    }

    static Sandbox.Settings sandboxSettings(ServerConfig config) {
        return new Sandbox.Settings(config.workers(), config.maxCallsPerWorker(), config.workerStartup(),
                config.killGrace(), config.maxSessions(), config.sessionIdleTimeout());
    }

    static WorkerLauncher launcher(ServerConfig config) throws java.io.IOException {
        WorkerSettings settings = new WorkerSettings(config.captureBytes(), config.stopAfterBytes(),
                config.readyContexts(), Math.max(100, config.killGrace().toMillis() / 3), config.imports(),
                config.strictBuiltins());
        Path cache = config.cacheDir();
        return new WorkerLauncher(config.workerHeap(), cache, config.workerJvmOptions(), settings, config.osSandbox());
    }

    private static void setLogLevel(String level) {
        if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(Level.toLevel(level, Level.INFO));
        }
    }
}
