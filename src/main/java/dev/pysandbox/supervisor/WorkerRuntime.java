package dev.pysandbox.supervisor;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Java a worker runs on, and the JVM options that go with it.
 *
 * <p>The build prepares {@code worker-runtime/} beside the server jar ({@link WorkerRuntimeBuilder}):
 * <ul>
 *   <li>{@code jdk/}: a JDK image linked from the build's JDK 25, without its {@code jdk.graal.compiler}
 *       module. Stock JDK 25 ships that module as an empty placeholder, so the real Graal compiler could
 *       only replace it through {@code --upgrade-module-path}, and the JVM turns the AOT cache off whenever
 *       that option is given (measured: "AOT cache is disabled when the --upgrade-module-path option is
 *       specified"). Without the placeholder the compiler comes in on the plain module path, and the JIT
 *       and the AOT cache work together.</li>
 *   <li>{@code compiler/}: the Graal compiler jars, the same version as GraalPy.</li>
 *   <li>{@code worker.aot}: a JDK AOT cache trained on a worker, which halves a worker's start.</li>
 * </ul>
 * Without that folder (a build on a JDK other than 25, which GraalPy 25.0's JIT does not accept) or with
 * {@code worker.jit=off}, workers run on the server's own Java, interpreter-only, and the log says so once.
 */
public final class WorkerRuntime {
    private static final Logger log = LoggerFactory.getLogger(WorkerRuntime.class);
    /** What {@code Engine.getImplementationName()} says when Truffle fell back to its interpreter. */
    private static final String INTERPRETED = "Interpreted";

    static final String JDK_DIR = "jdk";
    static final String COMPILER_DIR = "compiler";
    static final String AOT_CACHE = "worker.aot";
    /** The class path the AOT cache was trained with: the JVM only accepts the cache on the same one. */
    static final String AOT_CLASS_PATH = "worker.aot.classpath";

    private final Path java;
    private final List<String> jvmOptions;
    private final boolean optimizing;
    private final String description;
    private final boolean offersAotCache;
    private final AtomicBoolean fallbackReported = new AtomicBoolean();
    private final AtomicBoolean aotRefusalReported = new AtomicBoolean();

    private WorkerRuntime(Path java, List<String> jvmOptions, boolean optimizing, String description) {
        this.java = java;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.optimizing = optimizing;
        this.description = description;
        this.offersAotCache = jvmOptions.stream().anyMatch(option -> option.startsWith("-XX:AOTCache="));
    }

    /**
     * @param dir       the prepared folder (may be missing)
     * @param jit       {@code auto}: the optimizing runtime when the folder has it; {@code off}: interpreter only
     * @param classPath the workers' class path, which must match the one the AOT cache was trained on
     */
    static WorkerRuntime locate(Path dir, String jit, String classPath) {
        if (jit.equals("off")) {
            return interpreterOnly("worker.jit=off");
        }
        Path java = dir.resolve(JDK_DIR).resolve("bin").resolve("java");
        List<Path> compiler = jars(dir.resolve(COMPILER_DIR));
        if (!Files.isExecutable(java) || compiler.isEmpty()) {
            return interpreterOnly("no prepared worker runtime at " + dir
                    + " (the build makes one when it runs on JDK 25: rebuild with ./mvnw package on JDK 25)");
        }
        List<String> options = new ArrayList<>(optimizingOptions(compiler));
        String cache = "without an AOT cache (workers start slower)";
        if (aotCacheFits(dir, classPath)) {
            options.add("-XX:AOTCache=" + dir.resolve(AOT_CACHE));
            cache = "with its AOT cache";
        } else if (Files.exists(dir.resolve(AOT_CACHE))) {
            cache = "without its AOT cache, which was trained for another class path (workers start slower)";
        }
        return new WorkerRuntime(java, options, true, "GraalPy with the Graal JIT on " + java + ", " + cache);
    }

    /** The options that bring the Graal compiler in as the JVMCI compiler Truffle compiles Python with. */
    static List<String> optimizingOptions(List<Path> compilerJars) {
        return List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI",
                "--module-path", String.join(File.pathSeparator, compilerJars.stream().map(Path::toString).toList()),
                "--add-modules", "jdk.graal.compiler");
    }

    static WorkerRuntime interpreterOnly(String reason) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new WorkerRuntime(java, List.of(), false,
                "GraalPy interpreter-only (several times slower than with the JIT) on " + java + ": " + reason);
    }

    Path java() {
        return java;
    }

    List<String> jvmOptions() {
        return jvmOptions;
    }

    boolean optimizing() {
        return optimizing;
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
        if (optimizing && INTERPRETED.equals(engine) && fallbackReported.compareAndSet(false, true)) {
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

    private static boolean aotCacheFits(Path dir, String classPath) {
        try {
            return Files.isRegularFile(dir.resolve(AOT_CACHE))
                    && Files.readString(dir.resolve(AOT_CLASS_PATH)).strip().equals(classPath);
        } catch (IOException e) {
            return false;
        }
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
