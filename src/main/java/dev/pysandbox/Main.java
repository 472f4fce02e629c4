package dev.pysandbox;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;

import dev.pysandbox.auth.BearerTokens;
import dev.pysandbox.auth.MalformedTokensFile;
import dev.pysandbox.bridge.CodeMode;
import dev.pysandbox.bridge.SelfReference;
import dev.pysandbox.bridge.ServersFile;
import dev.pysandbox.cli.CommandLine;
import dev.pysandbox.cli.PackagesCommand;
import dev.pysandbox.cli.RunCommand;
import dev.pysandbox.cli.TokenCommand;
import dev.pysandbox.config.AuthMode;
import dev.pysandbox.config.CodeModeSettings;
import dev.pysandbox.config.ConfigException;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.mcp.HttpMcpServer;
import dev.pysandbox.mcp.SandboxMcpServer;
import dev.pysandbox.release.Release;
import dev.pysandbox.supervisor.OsSandboxUnavailable;
import dev.pysandbox.supervisor.Sandbox;
import dev.pysandbox.supervisor.WorkerLauncher;
import dev.pysandbox.supervisor.WorkerRuntimeBuilder;

/**
 * {@code python-sandbox-mcp [serve] [--config FILE] [--KEY=VALUE ...]} serves MCP on stdio (or over HTTP with
 * {@code --transport=http});
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
        if (commandLine.version()) {
            // Asked for, as with any command-line tool: on stdout, which carries no protocol here.
            PrintStream out = new PrintStream(stdout, true, "UTF-8");
            out.println(Release.describe());
            return;
        }
        setLogLevel(config.logLevel());
        Logger log = LoggerFactory.getLogger(Main.class);
        if (commandLine.prepareWorkers()) {
            // Build time (pom.xml): the JIT-capable worker JDK and its AOT cache; see WorkerRuntime.
            // The training worker writes the cache, so it runs outside the OS layer; it runs only our own code.
            ServerConfig training = ServerConfig.from(commandLine.settings().with("worker.os-sandbox", "off", "prepare-workers"));
            System.exit(new WorkerRuntimeBuilder(WorkerRuntimeBuilder.defaultDirectory()).build(training, System.err));
        }

        if (commandLine.packages() != null) {
            // The operator's command, outside any sandbox: its output is for a person, on stdout.
            System.exit(new PackagesCommand(commandLine.packages(), config).execute(new PrintStream(stdout, true, "UTF-8")));
        }
        if (commandLine.token() != null) {
            // stdout carries the new token and nothing else, for a script to capture.
            System.exit(new TokenCommand(commandLine.token(), config.http().tokens())
                    .execute(new PrintStream(stdout, true, "UTF-8"), System.err));
        }
        // The tokens file is read before any worker starts: a bad line is the operator's to fix, said in one
        // line (the file, the line number, what is wrong), not a stack trace after the workers came up.
        BearerTokens tokens = null;
        if (config.http().enabled() && config.http().auth() == AuthMode.TOKEN) {
            try {
                tokens = BearerTokens.read(config.http().tokens());
            } catch (MalformedTokensFile e) {
                System.err.println("python-sandbox-mcp: " + e.getMessage());
                System.exit(2);
                return;
            }
        }

        CodeMode codeMode;
        try {
            codeMode = codeMode(config, log);
        } catch (ConfigException e) {
            System.err.println("python-sandbox-mcp: " + e.getMessage());
            System.exit(2);
            return;
        }
        int exitCode = 0;
        try (Sandbox sandbox = new Sandbox(sandboxSettings(config), WorkerLauncher.forConfig(config), codeMode)) {
            if (!config.http().enabled()) {
                // Remote mode drains first and stops them itself (HttpMcpServer).
                Runtime.getRuntime().addShutdownHook(stopChildrenAtExit(sandbox, codeMode));
            }
            if (commandLine.run() != null) {
                sandbox.start();
                exitCode = new RunCommand(commandLine.run(), config).execute(sandbox, new PrintStream(stdout, true, "UTF-8"));
            } else if (config.http().enabled()) {
                log.info("python-sandbox-mcp {} serving MCP over HTTP (run root {})", Release.version(),
                        describeRunRoot(config));
                HttpMcpServer.serve(config, sandbox, codeMode, tokens);
            } else {
                log.info("python-sandbox-mcp {} serving MCP on stdio (run root {})", Release.version(),
                        describeRunRoot(config));
                SandboxMcpServer.serve(config, sandbox, codeMode, System.in, stdout);
                log.info("client closed the connection; shutting down");
            }
        } catch (OsSandboxUnavailable e) {
            // Before any worker started: one line that says why and how to fix it, no stack trace.
            log.error(e.getMessage());
            exitCode = 1;
        } catch (Exception | Error e) {
            // The exit below still stops every child: a failed server must not leave its workers or downstream
            // servers running, nor live on on the SDK's non-daemon threads.
            log.error("the server failed; shutting down", e);
            exitCode = 1;
        }
        // Non-daemon threads of the SDK must not keep a finished server alive.
        System.exit(exitCode);
    }

    /**
     * Code mode from {@code code-mode.servers}, off when none is named or when this server was itself started by
     * a code mode ({@code PYSANDBOX_MCP_DEPTH}): nested code modes would be recursion.
     */
    private static CodeMode codeMode(ServerConfig config, Logger log) throws ConfigException {
        CodeModeSettings settings = config.codeMode();
        if (!settings.enabled()) {
            return CodeMode.off(settings, "the server was started without code-mode.servers");
        }
        String depthText = System.getenv("PYSANDBOX_MCP_DEPTH");
        int depth = depthText == null || !depthText.strip().matches("\\d{1,3}") ? 0 : Integer.parseInt(depthText.strip());
        if (depth >= 1) {
            return CodeMode.off(settings, "this server was started by another server's code mode"
                    + " (PYSANDBOX_MCP_DEPTH=" + depth + "), and code mode does not nest");
        }
        ServersFile file = ServersFile.read(settings.serversFile(), System.getenv(), SelfReference.of(Release.jar()));
        file.warnings().forEach(log::warn);
        return CodeMode.of(settings, file.servers(), depth, Release.NAME, Release.version());
    }

    private static Object describeRunRoot(ServerConfig config) {
        return config.runRoot() != null ? config.runRoot() : "none: run_python takes code only (see run-python.root)";
    }

    /**
     * The hook that stops every process the server started: the workers, and the downstream servers with what
     * they started, both at once, a few seconds at most. The JVM runs it on every way out but SIGKILL: the exit
     * after end of input or after a failure, SIGTERM (the MCP SDK clients' close), SIGINT and SIGHUP. After the
     * normal end it finds nothing left.
     */
    private static Thread stopChildrenAtExit(Sandbox sandbox, CodeMode codeMode) {
        return new Thread(() -> {
            Thread downstream = Thread.ofPlatform().name("stop-downstream-servers").start(codeMode::close);
            sandbox.close();
            try {
                downstream.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "stop-children");
    }

    static Sandbox.Settings sandboxSettings(ServerConfig config) {
        return new Sandbox.Settings(config.workers(), config.maxCallsPerWorker(), config.workerStartup(),
                config.killGrace(), config.sessions(), config.longCalls());
    }

    private static void setLogLevel(String level) {
        if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(Level.toLevel(level, Level.INFO));
        }
    }
}
