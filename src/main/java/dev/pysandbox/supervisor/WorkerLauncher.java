package dev.pysandbox.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.pysandbox.worker.WorkerMain;
import dev.pysandbox.worker.WorkerSettings;

/**
 * Starts worker JVMs: the same Java and class path as this server, plus the flags that make a worker safe
 * to hand guest code to.
 *
 * <ul>
 *   <li>{@code -Xrs}: without it guest code can kill the worker with {@code signal.raise_signal(SIGTERM)} or
 *       make it deaf to SIGTERM (measured; see shared/notes).</li>
 *   <li>{@code -Xmx} and {@code -XX:+ExitOnOutOfMemoryError}: there is no per-context heap limit in the
 *       community edition, and a guest that catches {@code MemoryError} could keep the heap full; so running
 *       out of heap ends the worker (exit code 3), and the supervisor reports the memory limit.</li>
 *   <li>a private resource cache, so the extracted stdlib is not shared with other GraalPy users of the machine.</li>
 * </ul>
 */
public final class WorkerLauncher {
    private final Path javaExecutable;
    private final String classPath;
    private final String heap;
    private final Path resourceCache;
    private final List<String> extraJvmOptions;
    private final WorkerSettings settings;
    private final OsSandbox osSandbox;

    /**
     * @param osSandbox {@code auto}, {@code off} or {@code required}: whether workers run inside the OS layer
     *                  (see {@link OsSandbox}); detection happens here, once, and its outcome is logged
     */
    public WorkerLauncher(String heap, Path resourceCache, List<String> extraJvmOptions, WorkerSettings settings,
            String osSandbox) throws IOException {
        this.javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java");
        // Absolute, because the worker starts in another directory (its cache, or the cache's mount).
        this.classPath = java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .map(entry -> Path.of(entry).toAbsolutePath().normalize().toString())
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
        this.heap = heap;
        this.resourceCache = resourceCache;
        this.extraJvmOptions = List.copyOf(extraJvmOptions);
        this.settings = settings;
        Files.createDirectories(resourceCache);
        this.osSandbox = OsSandbox.detect(OsSandbox.mode(osSandbox), resourceCache, OsSandbox.readablePaths(classPath));
    }

    List<String> command(String workerName) {
        return osSandbox.wrap(javaCommand(workerName));
    }

    private List<String> javaCommand(String workerName) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable.toString());
        command.add("-Xrs");
        command.add("-Xmx" + heap);
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.add("-XX:+DisplayVMOutputToStderr"); // stdout carries the protocol only
        command.add("--enable-native-access=ALL-UNNAMED");
        if (Runtime.version().feature() >= 23) {
            // Truffle still uses sun.misc.Unsafe; JDK 23+ warns on stderr without this.
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add("-Dpolyglot.engine.userResourceCache=" + osSandbox.cacheSeenByWorker(resourceCache));
        command.add("-Dpolyglot.engine.WarnInterpreterOnly=false");
        command.add("-Dpysandbox.worker.name=" + workerName);
        command.addAll(List.of(settings.asSystemProperties()));
        command.addAll(extraJvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(WorkerMain.class.getName());
        return command;
    }

    Process launch(String workerName) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(workerName))
                .directory(resourceCache.toFile())
                .redirectErrorStream(false);
        // The guest sees no environment (EnvironmentAccess.NONE), and the worker needs none of ours.
        builder.environment().keySet().removeIf(name -> !name.equals("PATH") && !name.equals("HOME")
                && !name.equals("LANG") && !name.startsWith("LC_"));
        return builder.start();
    }
}
