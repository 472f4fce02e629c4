package dev.pysandbox.supervisor;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import dev.pysandbox.config.ServerConfig;

/**
 * The two kinds of worker, each a GraalPy runtime of its own in {@code worker-runtime/} (see {@link WorkerRuntime}).
 *
 * <ul>
 *   <li>{@link #INTERPRETER} ({@code worker.jit=off}, the default): the server's own GraalPy (pom.xml
 *       {@code graalpy.version}), with Truffle's interpreter-only runtime, on the server's class path.</li>
 *   <li>{@link #JIT} ({@code worker.jit=auto}): GraalPy {@code graalpy.jit.version} with the Graal compiler of the
 *       same line, on a class path of its own ({@link #JIT_LIB}). Truffle takes only a compiler of its own
 *       major.minor, and no Graal compiler for the server's newer GraalPy line exists on Maven Central, so the JIT
 *       workers keep the newest line that has one.</li>
 * </ul>
 */
enum WorkerKind {
    INTERPRETER("interpreter-only", "worker-interpreter.aot", 0),
    JIT("JIT", "worker-jit.aot", ServerConfig.JIT_HEADROOM_MB);

    /**
     * The JIT workers' whole class path, every jar in it: their GraalPy, the project's other libraries, and the
     * server's classes in a jar without the manifest Class-Path that would add the server's GraalPy (pom.xml).
     */
    static final String JIT_LIB = "jit-lib";

    private final String label;
    private final String aotCache;
    private final long heapHeadroomMb;

    WorkerKind(String label, String aotCache, long heapHeadroomMb) {
        this.label = label;
        this.aotCache = aotCache;
        this.heapHeadroomMb = heapHeadroomMb;
    }

    /** The kind {@code worker.jit} names: {@code off} or {@code auto}. */
    static WorkerKind forJitSetting(String jit) {
        return jit.equals("off") ? INTERPRETER : JIT;
    }

    /** For log lines: "interpreter-only" or "JIT". */
    String label() {
        return label;
    }

    /**
     * The AOT cache for workers of this kind. The JVM takes a cache only with the options and class path it was
     * trained with, hence one per kind; beside each, {@code NAME.classpath} is the class path it was trained with.
     */
    String aotCache() {
        return aotCache;
    }

    /**
     * The -Xmx for a worker of this kind. The Graal compiler runs inside the worker's heap and builds graphs of
     * several hundred megabytes while it compiles GraalPy's interpreter (measured: a worker capped at 512m died of
     * OutOfMemoryError after about 350 fresh-context calls with the JIT on, none without). So with the JIT the
     * compiler gets its own headroom on top of the guest's budget.
     */
    String heap(String guestHeap) {
        if (heapHeadroomMb == 0) {
            return guestHeap;
        }
        return (ServerConfig.heapBytes(guestHeap) / (1024 * 1024) + heapHeadroomMb) + "m";
    }

    /**
     * The class path of workers of this kind, or an empty string if the runtime folder does not have it.
     *
     * @param serverClassPath the server's own class path, which the interpreter-only workers share
     */
    String classPath(Path runtimeDirectory, String serverClassPath) {
        if (this == INTERPRETER) {
            return serverClassPath;
        }
        List<Path> jars = WorkerRuntime.jars(runtimeDirectory.resolve(JIT_LIB));
        return String.join(File.pathSeparator, jars.stream().map(Path::toString).toList());
    }
}
