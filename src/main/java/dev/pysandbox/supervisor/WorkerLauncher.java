package dev.pysandbox.supervisor;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.pysandbox.config.LongCallSettings;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.packages.KnownPackages;
import dev.pysandbox.process.Executables;
import dev.pysandbox.worker.WorkerMain;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.worker.WorkerSettings;

/**
 * Starts worker JVMs: the Java and class path of their kind ({@link WorkerRuntime}), plus the flags that make a
 * worker safe to hand guest code to.
 *
 * <ul>
 *   <li>{@code -Xrs}: without it guest code can kill the worker with {@code signal.raise_signal(SIGTERM)} or
 *       make it deaf to SIGTERM (SECURITY.md, "Layers").</li>
 *   <li>{@code -Xmx} and {@code -XX:+ExitOnOutOfMemoryError}: there is no per-context heap limit in the
 *       community edition, and a guest that catches {@code MemoryError} could keep the heap full; so running
 *       out of heap ends the worker (exit code 3), and the supervisor reports the memory limit.</li>
 *   <li>a private resource cache, so the extracted stdlib is not shared with other GraalPy users of the machine.</li>
 * </ul>
 */
public final class WorkerLauncher implements WorkerStarter {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(WorkerLauncher.class);
    /** {@code nice -n 19}, the prefix that starts a process at background priority; null where there is no nice. */
    private static final List<String> BACKGROUND = Executables.onPath("nice", System.getenv("PATH"))
            .map(nice -> List.of(nice.toString(), "-n", "19"))
            .orElse(null);

    private final WorkerRuntime runtime;
    /** The runtime of {@link WorkerRole#LONG_CALLS} workers; null when there are none. */
    private final WorkerRuntime longCallRuntime;
    private final String heap;
    private final Path resourceCache;
    private final List<String> extraJvmOptions;
    private final WorkerSettings settings;
    private final OsSandbox osSandbox;

    /**
     * @param jit       {@code off} or {@code auto}: whether workers run interpreter-only or with the Graal JIT
     *                  the build prepared (see {@link WorkerKind})
     * @param longCalls the JIT workers to start beside interpreter-only ones, for long calls
     *                  ({@code worker.jit-workers}; none when {@code jit} is {@code auto})
     * @param osSandbox {@code auto}, {@code off} or {@code required}: whether workers run inside the OS layer
     *                  (see {@link OsSandbox}); detection happens here, once, and its outcome is logged
     * @throws OsSandboxUnavailable when that setting asks for the OS layer and it cannot run here
     * @param shownFolders host folders workers read for their calls, which the OS layer must show read-only
     */
    public WorkerLauncher(String heap, Path resourceCache, List<String> extraJvmOptions, WorkerSettings settings,
            String jit, LongCallSettings longCalls, String osSandbox, List<Path> shownFolders) throws IOException {
        Path runtimeDirectory = WorkerRuntimeBuilder.defaultDirectory();
        this.runtime = WorkerRuntime.locate(runtimeDirectory, WorkerKind.forJitSetting(jit), workerClassPath());
        if (runtime.fallback()) {
            log.warn("workers run {}", runtime.description());
        } else {
            log.info("workers run {}", runtime.description());
        }
        this.longCallRuntime = longCallRuntime(runtimeDirectory, longCalls);
        this.heap = heap;
        this.resourceCache = resourceCache;
        this.extraJvmOptions = List.copyOf(extraJvmOptions);
        this.settings = settings;
        Files.createDirectories(resourceCache);
        List<Path> readable = new ArrayList<>(OsSandbox.readablePaths(runtime.classPath()));
        readable.add(runtime.java().getParent().getParent());
        if (longCallRuntime != null) {
            readable.addAll(OsSandbox.readablePaths(longCallRuntime.classPath()));
        }
        readable.add(runtimeDirectory);
        if (!settings.packagesDir().isEmpty()) {
            // Created now, empty, so that the OS layer can show it to workers started before the first install.
            readable.add(Files.createDirectories(Path.of(settings.packagesDir())));
        }
        readable.addAll(shownFolders);
        this.osSandbox = OsSandbox.detect(OsSandbox.mode(osSandbox), resourceCache, readable);
    }

    /**
     * The JIT runtime for long calls, when they are asked for and the general workers are interpreter-only; null
     * (and said in the log, as a warning if the operator asked for them by number) when the build prepared none, in
     * which case long calls stay where they started.
     */
    private WorkerRuntime longCallRuntime(Path runtimeDirectory, LongCallSettings longCalls) {
        if (longCalls.workers() == 0 || runtime.kind() == WorkerKind.JIT) {
            if (longCalls.picked() && runtime.kind() != WorkerKind.JIT) {
                log.info("no JIT worker for long calls: worker.jit-workers=auto starts none on {} cores and {} MB",
                        Runtime.getRuntime().availableProcessors(), ServerConfig.totalMemoryBytes() / (1024 * 1024));
            }
            return null;
        }
        WorkerRuntime jit = WorkerRuntime.locate(runtimeDirectory, WorkerKind.JIT, workerClassPath());
        if (jit.kind() != WorkerKind.JIT) {
            if (longCalls.picked()) {
                log.info("no JIT worker for long calls (worker.jit-workers=auto): {}", jit.description());
            } else {
                log.warn("no JIT worker for long calls (worker.jit-workers={}): {}", longCalls.workers(), jit.description());
            }
            return null;
        }
        log.info("{} JIT worker(s) take calls that outrun the interpreter{}, {}, on {}", longCalls.workers(),
                longCalls.picked() ? " (worker.jit-workers=auto)" : "",
                BACKGROUND != null ? "at nice 19" : "at normal priority (no nice command on PATH)", jit.description());
        return jit;
    }

    /**
     * This server's class path, absolute, because the worker starts in another directory; the interpreter-only
     * workers' class path too.
     */
    static String workerClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .map(entry -> Path.of(entry).toAbsolutePath().normalize().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** A launcher for the workers {@code config} describes. */
    public static WorkerLauncher forConfig(ServerConfig config) throws IOException {
        WorkerSettings settings = new WorkerSettings(config.captureBytes(), config.stopAfterBytes(),
                config.readyContexts(), Math.max(100, config.killGrace().toMillis() / 3), config.imports(),
                config.strictBuiltins(), config.preload(), config.packagesDir().toString(), config.fileLimits(),
                config.autoInstall() ? List.copyOf(KnownPackages.modules()) : List.of(), config.warmUpRuns());
        // run_python's working directory is read in the worker (run-python.read-working-directory), so the
        // OS layer must show the run root to it, read-only.
        List<Path> shown = config.runReadsWorkingDirectory()
                ? List.of(config.runRoot().toAbsolutePath().normalize()) : List.of();
        return new WorkerLauncher(config.workerHeap(), config.cacheDir(), config.workerJvmOptions(), settings,
                config.jit(), config.longCalls(), config.osSandbox(), shown);
    }

    @Override
    public AnswerBudget answerBudget() {
        return settings.answerBudget();
    }

    @Override
    public List<String> autoInstalled() {
        return settings.autoInstall();
    }

    /** Why workers run without the OS layer (see {@link OsSandbox#absence}). */
    @Override
    public Optional<String> osSandboxAbsence() {
        return osSandbox.absence();
    }

    Path resourceCache() {
        return resourceCache;
    }

    List<String> command(String workerName, WorkerRole role) {
        List<String> java = javaCommand(runtimeFor(role), settings, workerName);
        if (role == WorkerRole.LONG_CALLS && BACKGROUND != null) {
            // The whole JIT worker at nice 19, every thread it will ever have (Linux gives each its own nice, which
            // a thread inherits when it is made): its warm-up, its compiler threads and its twins take only CPU
            // that no general worker's call wants, and an unprivileged process could not lower a nice value again
            // to make room for a twin. A twin still has every core a call leaves idle (BENCHMARKS.md, "Long calls
            // and their twins").
            List<String> niced = new ArrayList<>(BACKGROUND);
            niced.addAll(java);
            java = niced;
        }
        return osSandbox.wrap(java);
    }

    private WorkerRuntime runtimeFor(WorkerRole role) {
        return role == WorkerRole.LONG_CALLS && longCallRuntime != null ? longCallRuntime : runtime;
    }

    @Override
    public boolean startsLongCallWorkers() {
        return longCallRuntime != null;
    }

    /**
     * The java command line of an AOT training run on {@code runtime}: a worker's, without the OS layer and without
     * nice. The JIT runtime trains without warming itself: a cache also serves workers started with other system
     * properties, the long-call workers' warm-up among them. With the warm-up's runs
     * the JIT cache's training took 143-147 core-seconds instead of 123-131, for 1 MB more cache
     * (BENCHMARKS.md, "Release").
     */
    List<String> trainingCommand(WorkerRuntime runtime) {
        WorkerSettings training = runtime.kind() == WorkerKind.JIT ? settings.withoutWarmUp() : settings;
        return javaCommand(runtime, training, "aot-training");
    }

    private List<String> javaCommand(WorkerRuntime runtime, WorkerSettings settings, String workerName) {
        List<String> command = new ArrayList<>();
        command.add(runtime.java().toString());
        command.addAll(runtime.jvmOptions());
        command.add("-Xrs");
        command.add("-Xmx" + runtime.kind().heap(heap));
        // Parallel GC unless worker.jvm-options picks another (two GC flags would stop the JVM); chosen by
        // measurement against G1, see BENCHMARKS.md.
        if (extraJvmOptions.stream().noneMatch(GC_SELECTORS::contains)) {
            command.add("-XX:+UseParallelGC");
        }
        // JVM log lines (the AOT cache's among them) default to stdout, which carries the protocol.
        command.add("-Xlog:disable");
        command.add("-Xlog:all=warning:stderr");
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.add("-XX:+DisplayVMOutputToStderr"); // stdout carries the protocol only
        command.add("--enable-native-access=ALL-UNNAMED");
        if (runtime.kind() == WorkerKind.JIT || Runtime.version().feature() >= 23) { // the prepared runtime is JDK 25
            // Truffle still uses sun.misc.Unsafe; JDK 23+ warns on stderr without this.
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add("-Dpolyglot.engine.userResourceCache=" + osSandbox.cacheSeenByWorker(resourceCache));
        command.add("-Dpolyglot.engine.WarnInterpreterOnly=false");
        // Charts are drawn with Java2D in the worker, which has no display (and must not look for one).
        command.add("-Djava.awt.headless=true");
        command.add("-Dpysandbox.worker.name=" + workerName);
        command.addAll(List.of(settings.asSystemProperties()));
        command.addAll(extraJvmOptions);
        command.add("-cp");
        command.add(runtime.classPath());
        command.add(WorkerMain.class.getName());
        return command;
    }

    /** The flags that choose a collector; tuning flags such as -XX:+UseAdaptiveSizePolicyWithSystemGC do not. */
    private static final Set<String> GC_SELECTORS = Set.of("-XX:+UseSerialGC", "-XX:+UseParallelGC",
            "-XX:+UseG1GC", "-XX:+UseZGC", "-XX:+UseShenandoahGC", "-XX:+UseEpsilonGC");

    /**
     * The guest sees no environment (EnvironmentAccess.NONE) and the worker needs none of ours; and
     * JAVA_TOOL_OPTIONS and the like must not change a worker's JVM behind the launcher's back.
     */
    static void keepOnlyNeededEnvironment(Map<String, String> environment) {
        environment.keySet().removeIf(name -> !name.equals("PATH") && !name.equals("HOME")
                && !name.equals("LANG") && !name.startsWith("LC_"));
    }

    @Override
    public void checkEngine(WorkerRole role, String engine, boolean aotCache) {
        runtimeFor(role).checkEngine(engine, aotCache);
    }

    @Override
    public Process launch(String workerName, WorkerRole role) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(workerName, role))
                .directory(resourceCache.toFile())
                .redirectErrorStream(false);
        keepOnlyNeededEnvironment(builder.environment());
        return builder.start();
    }
}
