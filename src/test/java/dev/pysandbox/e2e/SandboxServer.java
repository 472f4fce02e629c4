package dev.pysandbox.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

/**
 * The real server, launched as a user would (bin/python-sandbox-mcp), driven by the MCP Java SDK's own
 * client over stdio. Flags given here override config/ defaults, as on the command line.
 */
final class SandboxServer implements AutoCloseable {
    static final Path PROJECT_ROOT = Path.of(System.getProperty("project.root", ".")).toAbsolutePath().normalize();
    static final Path LAUNCHER = PROJECT_ROOT.resolve("bin/python-sandbox-mcp");
    /**
     * What every server the suite starts gets first (its own flags come later and win):
     * <ul>
     *   <li>no JIT worker for long calls, which only LongCallsIT starts: elsewhere a call running past the move
     *       delay (a timeout test's loop) would move to it, and each server would pay a JIT JVM on the suite's two
     *       cores;</li>
     *   <li>no warm-up: a new worker runs the shipped training workload while it has no call (BENCHMARKS.md,
     *       "Warm-up"), which on the suite's two cores took the CPU the tests wait for (an idle worker used 16 s
     *       of CPU in its first 45 s, 11 s without warm-up);</li>
     *   <li>no preloaded modules: a worker imports them into every fresh context, each call's included, which
     *       cost a C1-only worker 1.5 s of CPU at start (6.3 s instead of 4.8) and 0.20 s more per call (0.355 s
     *       instead of 0.154, sequential calls, 2026-11-28), and the suite starts over a hundred workers and makes
     *       thousands of calls. What a call may import is the same either way.</li>
     * </ul>
     * Servers that test calls meeting a warming worker ask for a short warm-up ({@link #SHORT_WARM_UP}: SharedServer,
     * LongCallsIT). As shipped, 200 runs: the shared server's two workers spent 1 min 46 s and 1 min 42 s of CPU on
     * it in a clean-clone run (2026-11-28), on the two cores the other classes' tests were waiting for. Servers that
     * test what preloading does, or that stand for a worker as a hostile call meets it (the attack, fault and
     * isolation suites), ask for the shipped preload ({@link #PRELOAD_AS_SHIPPED}).
     */
    static final List<String> SUITE_FLAGS = List.of("--worker.jit-workers=0", "--worker.warm-up-runs=0", "--worker.preload=");
    /** The runs of a warm-up of a few seconds, which a server's first calls meet. */
    static final int SHORT_WARM_UP_RUNS = 10;
    static final String SHORT_WARM_UP = "--worker.warm-up-runs=" + SHORT_WARM_UP_RUNS;
    /** The modules a worker preloads as shipped: config/'s own list. */
    static final String PRELOAD_AS_SHIPPED = "--worker.preload=" + shippedSetting("worker.preload");
    /**
     * The worker JVM option every other server's workers get: C1 only. A new worker JVM spends seconds of CPU in
     * C2 compiling the interpreter, which a suite that starts a few hundred workers on two cores pays in full and a
     * test's short calls never win back: a worker given one small call used 16 s of CPU in its first 44 s, 8 s with
     * C1 only; AttackSuiteIT took 72 s instead of 128, FaultSuiteIT 36 instead of 47 (same machine, same hour).
     * What a call does is the same on either tier. Servers with JIT workers and the short soak keep the shipped JVM
     * ({@link #startOnTheShippedWorkerJvm}): the JIT workers' compiler is what they test, and the soak's thousand
     * calls win the compilation back.
     */
    static final String SUITE_WORKER_JVM_OPTIONS = "-XX:TieredStopAtLevel=1";
    private static final String JVM_OPTIONS = "--worker.jvm-options=";
    /**
     * The server JVM's own options in the suite, given through {@code JAVA_TOOL_OPTIONS} (which workers never
     * inherit: WorkerLauncher passes them only PATH, HOME and the locale): C1 only, for the reason the workers get
     * it. A server's start and 150 small calls took 1.7 s of its CPU instead of 2.6 (2026-11-28), and the suite
     * starts about seventy. What a server answers does not depend on its JIT tier. The long soak, which stands
     * for what users run, keeps the shipped JVM ({@link #startAsShipped}), as do the release's servers (ReleaseIT).
     */
    static final String SUITE_SERVER_JVM_OPTIONS = "-XX:TieredStopAtLevel=1";
    private static final String TOOL_OPTIONS = "JAVA_TOOL_OPTIONS";

    /**
     * Flags every server of this run gets after the suite's and before its own, from
     * {@code -Dpysandbox.it.server-flags} (separated by spaces): to run a suite by hand against another
     * configuration, for example the escape and fault suites against JIT workers with
     * {@code -Dpysandbox.it.server-flags=--worker.jit=auto}.
     */
    private static final List<String> RUN_FLAGS = java.util.Arrays.stream(
            System.getProperty("pysandbox.it.server-flags", "").split(" ")).filter(f -> !f.isBlank()).toList();

    /** Which worker JVM a suite server's workers get. */
    private enum WorkerJvm {
        /** {@link #SUITE_WORKER_JVM_OPTIONS} in front of the server's own, unless it runs JIT workers. */
        SUITE,
        /** The shipped JVM options, with the server's own. */
        SHIPPED
    }

    /**
     * The whole command-line tail of a suite server: the suite's flags, this run's, then the server's own. The
     * worker JVM options get {@link #SUITE_WORKER_JVM_OPTIONS} in front, unless the server runs JIT workers.
     */
    static List<String> withSuiteFlags(List<String> own) {
        return withSuiteFlags(own, WorkerJvm.SUITE);
    }

    private static List<String> withSuiteFlags(List<String> own, WorkerJvm workerJvm) {
        List<String> given = new ArrayList<>(RUN_FLAGS);
        given.addAll(own);
        List<String> args = new ArrayList<>(SUITE_FLAGS);
        if (workerJvm == WorkerJvm.SHIPPED || given.stream().anyMatch(SandboxServer::startsJitWorkers)) {
            args.addAll(given);
            return args;
        }
        args.add(JVM_OPTIONS + SUITE_WORKER_JVM_OPTIONS);
        for (String flag : given) {
            args.add(flag.startsWith(JVM_OPTIONS)
                    ? JVM_OPTIONS + SUITE_WORKER_JVM_OPTIONS + " " + flag.substring(JVM_OPTIONS.length())
                    : flag);
        }
        return args;
    }

    /** Whether a flag asks for JIT workers: worker.jit other than off, or worker.jit-workers above 0. */
    private static boolean startsJitWorkers(String flag) {
        return flag.startsWith("--worker.jit=") && !flag.equals("--worker.jit=off")
                || flag.startsWith("--worker.jit-workers=") && !flag.equals("--worker.jit-workers=0");
    }

    final McpSyncClient client;
    /** The server's stderr (its log), line by line. */
    final List<String> log;

    private SandboxServer(McpSyncClient client, List<String> log) {
        this.client = client;
        this.log = log;
    }

    /** A setting's value in the documented defaults file, config/python-sandbox-mcp.properties. */
    static String shippedSetting(String key) {
        java.util.Properties shipped = new java.util.Properties();
        try (java.io.Reader in = java.nio.file.Files.newBufferedReader(PROJECT_ROOT.resolve("config/python-sandbox-mcp.properties"))) {
            shipped.load(in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return java.util.Objects.requireNonNull(shipped.getProperty(key), key + " is not in config/");
    }

    /**
     * The environment of a suite server's process: {@code own}, with {@link #SUITE_SERVER_JVM_OPTIONS} in front of
     * any JVM options it gives.
     */
    static Map<String, String> suiteEnvironment(Map<String, String> own) {
        Map<String, String> environment = new java.util.HashMap<>(own);
        environment.merge(TOOL_OPTIONS, SUITE_SERVER_JVM_OPTIONS, (given, suite) -> suite + " " + given);
        return environment;
    }

    /** A process builder for a suite server's command line, with {@link #suiteEnvironment}. */
    static ProcessBuilder suiteProcess(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(suiteEnvironment(Map.of()));
        return builder;
    }

    static SandboxServer start(String... flags) {
        return start(Map.of(), flags);
    }

    /** With extra environment variables for the server process (the attack suite plants a secret there). */
    static SandboxServer start(Map<String, String> environment, String... flags) {
        return start(environment, spec -> spec, flags);
    }

    /** With a client that listens for more, e.g. {@code spec -> spec.progressConsumer(...)}. */
    static SandboxServer start(UnaryOperator<McpClient.SyncSpec> client, String... flags) {
        return start(Map.of(), client, flags);
    }

    static SandboxServer start(Map<String, String> environment, UnaryOperator<McpClient.SyncSpec> clientSpec,
            String... flags) {
        return launch(suiteEnvironment(environment), clientSpec, withSuiteFlags(List.of(flags)));
    }

    /**
     * With the worker JVM as shipped, and otherwise the suite's settings: for the short soak, whose thousand calls
     * win the compilation back (its workers used 236 s of CPU instead of 259, 2026-11-28). SharedServer's few
     * hundred calls do not: the seven classes that use it took 144 and 159 core-seconds of the machine on C1-only
     * workers, 172 and 199 on these (2026-11-28, same hour, run alone), though AgentCorpusIT's real snippets ran
     * faster on these (31 s against 43).
     */
    static SandboxServer startOnTheShippedWorkerJvm(Map<String, String> environment, String... flags) {
        return launch(suiteEnvironment(environment), spec -> spec, withSuiteFlags(List.of(flags), WorkerJvm.SHIPPED));
    }

    /**
     * A server on the shipped configuration, config/ as it is with only this run's flags and its own: for the long
     * soak, which stands for what users run.
     */
    static SandboxServer startAsShipped(Map<String, String> environment, String... flags) {
        List<String> args = new ArrayList<>(RUN_FLAGS);
        args.addAll(List.of(flags));
        return launch(environment, spec -> spec, args);
    }

    private static SandboxServer launch(Map<String, String> environment, UnaryOperator<McpClient.SyncSpec> clientSpec,
            List<String> args) {
        ServerParameters parameters = ServerParameters.builder(LAUNCHER.toString()).args(args).env(environment).build();
        StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
        List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
        transport.setStdErrorHandler(line -> {
            log.add(line);
            System.err.println("[server] " + line);
        });
        // Generous: the first call may wait for a cold worker JVM on a loaded 2-core machine.
        McpSyncClient client = clientSpec.apply(McpClient.sync(transport).requestTimeout(Duration.ofSeconds(240))).build();
        client.initialize();
        return new SandboxServer(client, log);
    }

    /**
     * The worker JVMs of a server started with {@code --worker.jvm-options=-D<tag>}. Both the server's own
     * command line and, under bubblewrap, the bwrap process carry the tag too; the workers are the java
     * processes running WorkerMain.
     */
    static List<ProcessHandle> workersTagged(String tag) {
        List<ProcessHandle> tagged = javaTagged(tag).filter(p -> commandLine(p).contains("WorkerMain")).toList();
        java.util.Set<Long> pids = tagged.stream().map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
        // A worker's own child is no worker: renice, which a worker starts to lower its warm-up thread
        // (BackgroundPriority), shows the worker's executable and command line until it execs (LongCallsIT saw one).
        return tagged.stream().filter(p -> p.parent().map(parent -> !pids.contains(parent.pid())).orElse(true)).toList();
    }

    /**
     * The general workers among {@link #workersTagged}: those every call starts on, without the JIT worker a run's
     * flags may add ({@code -Dpysandbox.it.server-flags=--worker.jit-workers=1}), which takes twins and sessions that
     * compute only.
     */
    static List<ProcessHandle> generalWorkersTagged(String tag) {
        return workersTagged(tag).stream().filter(p -> !isJitWorker(p)).toList();
    }

    /** Whether a worker process is a JIT worker for long calls, by the name its command line gives it. */
    static boolean isJitWorker(ProcessHandle worker) {
        return commandLine(worker).contains("-Dpysandbox.worker.name=jit-worker-");
    }

    /** The server JVM started with that tag: the tagged java process that is not a worker. */
    static ProcessHandle serverTagged(String tag) {
        return javaTagged(tag).filter(p -> !commandLine(p).contains("WorkerMain"))
                .findFirst().orElseThrow(() -> new AssertionError("no server process tagged " + tag));
    }

    private static java.util.stream.Stream<ProcessHandle> javaTagged(String tag) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .filter(p -> commandLine(p).contains(tag));
    }

    /**
     * A process's whole command line, its arguments joined by spaces. {@code ProcessHandle.Info} reads only the
     * first page of {@code /proc/PID/cmdline} on Linux, which a JIT worker's class path outruns, so that is read
     * here directly where it exists.
     */
    static String commandLine(ProcessHandle process) {
        try {
            byte[] raw = java.nio.file.Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            return new String(raw, java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (java.io.IOException | RuntimeException e) {
            return process.info().commandLine().orElse("");
        }
    }

    CallToolResult call(String tool, Map<String, Object> arguments) {
        for (int attempt = 1; ; attempt++) {
            try {
                return client.callTool(new CallToolRequest(tool, arguments));
            } catch (RuntimeException e) {
                // The SDK's StdioClientTransport refuses a send that races another thread's (its outbound sink
                // must be signalled serially: "Failed to enqueue message"). The request never left, so sending
                // it again is safe; anything else is the test's business.
                if (attempt == 20 || !String.valueOf(e.getMessage()).contains("Failed to enqueue message")) {
                    throw e;
                }
                Thread.onSpinWait();
            }
        }
    }

    /** execute_code, returning its structured result. */
    @SuppressWarnings("unchecked")
    Map<String, Object> execute(Map<String, Object> arguments) {
        CallToolResult result = call("execute_code", arguments);
        if (result.structuredContent() == null) {
            throw new AssertionError("no structured content: " + text(result));
        }
        return (Map<String, Object>) result.structuredContent();
    }

    Map<String, Object> python(String code) {
        return execute(Map.of("language", "python", "code", code));
    }

    static String text(CallToolResult result) {
        StringBuilder text = new StringBuilder();
        result.content().forEach(c -> {
            if (c instanceof TextContent t) {
                text.append(t.text());
            }
        });
        return text.toString();
    }

    @Override
    public void close() {
        client.closeGracefully();
    }
}
