package dev.pysandbox.supervisor;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.packages.InstallerJvm;

/**
 * The Java a worker runs on, its class path, and the JVM options that go with them.
 *
 * <p>The build prepares {@code worker-runtime/} beside the server jar ({@link WorkerRuntimeBuilder}):
 * <ul>
 *   <li>{@code jdk/}: a JDK image linked from the build's JDK 25, without its {@code jdk.graal.compiler}
 *       module. Stock JDK 25 ships that module as an empty placeholder, so the real Graal compiler could
 *       only replace it through {@code --upgrade-module-path}, and the JVM turns the AOT cache off whenever
 *       that option is given (measured: "AOT cache is disabled when the --upgrade-module-path option is
 *       specified"). Without the placeholder the compiler comes in on the plain module path, and the JIT
 *       and the AOT cache work together.</li>
 *   <li>{@code compiler/}: the Graal compiler jars, of the JIT workers' GraalPy line ({@link WorkerKind}).</li>
 *   <li>{@code jit-lib/}: the JIT workers' class path, with their own GraalPy ({@link WorkerKind#JIT_LIB}).</li>
 *   <li>{@code worker-interpreter.aot} and {@code worker-jit.aot}: JDK AOT caches trained on a worker of each
 *       kind, which halve a worker's start ({@link WorkerKind#aotCache}).</li>
 * </ul>
 * {@code worker.jit=off}, the default, runs GraalPy interpreter-only: on two cores the JIT costs agent code
 * more than it returns, because the code is new every call and its compiled code dies with its context
 * (BENCHMARKS.md, agent workload). {@code auto} runs the Graal JIT. Without the folder (a build on a JDK other
 * than 25, which GraalPy 25.0's JIT does not accept) workers run on the server's own Java, interpreter-only,
 * without an AOT cache, and the log says so once.
 */
public final class WorkerRuntime {
    private static final Logger log = LoggerFactory.getLogger(WorkerRuntime.class);
    /** What {@code Engine.getImplementationName()} says when Truffle fell back to its interpreter. */
    private static final String INTERPRETED = "Interpreted";

    static final String JDK_DIR = "jdk";
    static final String COMPILER_DIR = "compiler";
    /** Selects Truffle's interpreter-only runtime without first looking for the optimizing one. */
    static final String FALLBACK_RUNTIME = "-Dtruffle.UseFallbackRuntime=true";

    private final Path java;
    private final List<String> jvmOptions;
    private final WorkerKind kind;
    private final String classPath;
    private final String description;
    private final boolean offersAotCache;
    private final boolean fallback;
    private final AtomicBoolean fallbackReported = new AtomicBoolean();
    private final AtomicBoolean aotRefusalReported = new AtomicBoolean();

    private WorkerRuntime(Path java, List<String> jvmOptions, WorkerKind kind, String classPath, String description,
            boolean fallback) {
        this.fallback = fallback;
        this.java = java;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.kind = kind;
        this.classPath = classPath;
        this.description = description;
        this.offersAotCache = jvmOptions.stream().anyMatch(option -> option.startsWith("-XX:AOTCache="));
    }

    /**
     * @param dir             the prepared folder (may be missing)
     * @param kind            the kind asked for; {@link WorkerKind#JIT} falls back to the server's Java,
     *                        interpreter-only, when the folder lacks it
     * @param serverClassPath the server's class path, which interpreter-only workers share
     */
    static WorkerRuntime locate(Path dir, WorkerKind kind, String serverClassPath) {
        Path java = dir.resolve(JDK_DIR).resolve("bin").resolve("java");
        if (kind == WorkerKind.INTERPRETER) {
            if (!Files.isExecutable(java)) {
                return interpreterOnly("worker.jit=off, and no prepared worker runtime at " + dir, serverClassPath);
            }
            List<String> options = new ArrayList<>(List.of(FALLBACK_RUNTIME));
            String cache = withAotCache(dir, kind.aotCache(), serverClassPath, options);
            return new WorkerRuntime(java, options, kind, serverClassPath,
                    "GraalPy interpreter-only (worker.jit=off, the default) on " + java + ", " + cache, false);
        }
        List<Path> compiler = jars(dir.resolve(COMPILER_DIR));
        String classPath = kind.classPath(dir, serverClassPath);
        if (!Files.isExecutable(java) || compiler.isEmpty() || classPath.isEmpty()) {
            return interpreterOnly("no prepared worker runtime at " + dir
                    + " (the build makes one when it runs on JDK 25: rebuild with ./mvnw package on JDK 25)", serverClassPath);
        }
        List<String> options = new ArrayList<>(optimizingOptions(compiler));
        String cache = withAotCache(dir, kind.aotCache(), classPath, options);
        return new WorkerRuntime(java, options, kind, classPath,
                "GraalPy with the Graal JIT on " + java + " and the class path in " + dir.resolve(WorkerKind.JIT_LIB)
                        + ", " + cache, false);
    }

    /**
     * The JVM the operator's package commands run in (pip, the bytecode compile, the import check): GraalPy
     * interpreter-only, as the default workers run it, so on their Java and with their AOT cache when the build
     * prepared them ({@link InstallerJvm}); on the server's own Java otherwise, as such workers would be.
     */
    public static InstallerJvm forInstaller() {
        return forInstaller(WorkerRuntimeBuilder.defaultDirectory(), WorkerLauncher.workerClassPath());
    }

    static InstallerJvm forInstaller(Path dir, String classPath) {
        WorkerRuntime runtime = locate(dir, WorkerKind.INTERPRETER, classPath);
        return new InstallerJvm(runtime.java, runtime.jvmOptions, runtime.classPath);
    }

    /** Adds the AOT cache {@code name} to {@code options} if it fits this class path; says which way it went. */
    private static String withAotCache(Path dir, String name, String classPath, List<String> options) {
        if (aotCacheFits(dir, name, classPath)) {
            options.add("-XX:AOTCache=" + dir.resolve(name));
            return "with its AOT cache";
        }
        if (Files.exists(dir.resolve(name))) {
            return "without its AOT cache, which was trained for another class path (workers start slower)";
        }
        return "without an AOT cache (workers start slower)";
    }

    /**
     * The options that bring the Graal compiler in as the JVMCI compiler Truffle compiles Python with, with one
     * compiler thread. Truffle picks one on two cores by itself and more on bigger machines, where each would
     * compete with the calls for cores; the compiler's own first compilations, not their number, are what a twin
     * waits for (BENCHMARKS.md, "Long calls and their twins").
     */
    static List<String> optimizingOptions(List<Path> compilerJars) {
        return List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI",
                "--module-path", String.join(File.pathSeparator, compilerJars.stream().map(Path::toString).toList()),
                "--add-modules", "jdk.graal.compiler", "-Dpolyglot.engine.CompilerThreads=1");
    }

    static WorkerRuntime interpreterOnly(String reason, String serverClassPath) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new WorkerRuntime(java, List.of(), WorkerKind.INTERPRETER, serverClassPath,
                "GraalPy interpreter-only, without an AOT cache (workers start slower), on " + java + ": " + reason, true);
    }

    /** Whether this is less than was asked for (no prepared runtime), which the log should warn about. */
    boolean fallback() {
        return fallback;
    }

    Path java() {
        return java;
    }

    List<String> jvmOptions() {
        return jvmOptions;
    }

    /** The kind these workers are, which is {@link WorkerKind#INTERPRETER} after a {@link #fallback}. */
    WorkerKind kind() {
        return kind;
    }

    /** The workers' class path, which must match the one their AOT cache was trained on. */
    String classPath() {
        return classPath;
    }

    String description() {
        return description;
    }

    /**
     * Called with what each worker reports when ready. Warns once if the JIT was expected and did not come
     * up, and once if the JVM refused the AOT cache it was offered (stale: the jars changed since training).
     *
     * @return whether this call warned
     */
    boolean checkEngine(String engine, boolean aotCache) {
        if (kind == WorkerKind.JIT && INTERPRETED.equals(engine) && fallbackReported.compareAndSet(false, true)) {
            log.warn("workers were started for the Graal JIT but GraalPy runs interpreter-only (several times "
                    + "slower); the worker runtime beside the server jar may not match this machine: rebuild it");
            return true;
        }
        if (offersAotCache && !aotCache && aotRefusalReported.compareAndSet(false, true)) {
            log.warn("the JVM refused the workers' AOT cache (the jars changed since it was trained?), so workers "
                    + "start slower; ./mvnw package trains a new one");
            return true;
        }
        return false;
    }

    private static boolean aotCacheFits(Path dir, String name, String classPath) {
        try {
            return Files.isRegularFile(dir.resolve(name))
                    && Files.readString(dir.resolve(name + ".classpath")).strip().equals(portable(dir, classPath));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The class path as a cache's {@code .classpath} note holds it: entries in the server's folder (the parent of
     * {@code dir}) relative to it. A release unpacked elsewhere then matches, as it matches for the JVM, which
     * maps a cache whose class path moved with its folder (BENCHMARKS.md, "Release").
     */
    static String portable(Path dir, String classPath) {
        Path home = dir.toAbsolutePath().normalize().getParent();
        return Arrays.stream(classPath.split(File.pathSeparator))
                .map(entry -> Path.of(entry).startsWith(home) ? home.relativize(Path.of(entry)).toString() : entry)
                .collect(Collectors.joining(File.pathSeparator));
    }

    static List<Path> jars(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".jar")).map(Path::toAbsolutePath).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
