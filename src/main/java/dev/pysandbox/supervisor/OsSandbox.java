package dev.pysandbox.supervisor;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.host.UserDirectories;

/**
 * The operating-system layer around each worker, for the day the interpreter's own refusals fail:
 * resource limits through {@code prlimit}, and a {@code bwrap} (bubblewrap) sandbox with no network, its own
 * PID, IPC and UTS namespaces, a read-only view of the file system, and the user's home and {@code /tmp}
 * hidden except for what the worker needs (its class path and Java, read-only; its resource cache, writable,
 * mounted at {@link #CACHE_MOUNT}).
 *
 * <p>Each tool is used only if it is installed and works here (bubblewrap needs user namespaces or root);
 * what is missing is said once in the log, and {@code worker.os-sandbox=required} refuses to start without it.
 */
final class OsSandbox {
    private static final Logger log = LoggerFactory.getLogger(OsSandbox.class);

    /** Per worker: no core dumps, a bounded number of open files, files written no larger than this. */
    static final List<String> RLIMITS = List.of("--core=0", "--nofile=4096", "--fsize=" + (64L << 20), "--nproc=4096");

    enum Mode { AUTO, OFF, REQUIRED }

    /**
     * Where a worker under bubblewrap sees its resource cache. Module paths such as {@code json.__file__}
     * and {@code sys.prefix} then name this neutral folder instead of the host user's home.
     */
    static final String CACHE_MOUNT = "/tmp/python-sandbox";

    private final List<String> prefix;
    private final boolean isolatedFileSystem;
    private final List<String> missing;

    private OsSandbox(List<String> prefix, boolean isolatedFileSystem, List<String> missing) {
        this.prefix = List.copyOf(prefix);
        this.isolatedFileSystem = isolatedFileSystem;
        this.missing = List.copyOf(missing);
    }

    static Mode mode(String raw) {
        return Mode.valueOf(raw.strip().toUpperCase(Locale.ROOT));
    }

    /**
     * Finds what this machine offers and builds the command prefix for workers.
     *
     * @param writable the one directory a worker may write (its resource cache)
     * @param readable what a worker must read besides the system directories (Java, its class path)
     */
    static OsSandbox detect(Mode mode, Path writable, List<Path> readable) {
        if (mode == Mode.OFF) {
            log.info("OS sandbox for workers: off (worker.os-sandbox=off)");
            return new OsSandbox(List.of(), false, List.of());
        }
        List<String> prefix = new ArrayList<>();
        List<String> layers = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        if (works(List.of("prlimit", "--core=0", "--", "true"))) {
            prefix.add("prlimit");
            prefix.addAll(RLIMITS);
            prefix.add("--");
            layers.add("rlimits (core 0, 4096 files, 64 MiB files, 4096 processes)");
        } else {
            missing.add("prlimit (util-linux) for resource limits");
        }
        List<String> bwrap = bwrapPrefix(writable, readable);
        List<String> probe = new ArrayList<>(bwrap);
        probe.add("true");
        boolean bwrapWorks = works(probe);
        if (bwrapWorks) {
            prefix.addAll(bwrap);
            layers.add("bubblewrap (no network, own PID/IPC/UTS namespaces, read-only file system, home and /tmp hidden)");
        } else {
            missing.add("bwrap (Debian package bubblewrap) for the network, file system and PID isolation");
        }
        if (!missing.isEmpty() && mode == Mode.REQUIRED) {
            throw new IllegalStateException("worker.os-sandbox=required, but this machine lacks: " + String.join("; ", missing));
        }
        String description = (layers.isEmpty() ? "none" : String.join(" + ", layers))
                + (missing.isEmpty() ? "" : "; MISSING: " + String.join("; ", missing));
        if (missing.isEmpty()) {
            log.info("OS sandbox for workers: {}", description);
        } else {
            log.warn("OS sandbox for workers is incomplete: {}. Workers still run in locked-down interpreters in"
                    + " separate processes, but without this layer.", description);
        }
        return new OsSandbox(prefix, bwrapWorks, missing);
    }

    /** The layers this machine lacks (tool names, no paths), empty when the layer is whole or switched off. */
    List<String> missing() {
        return missing;
    }

    /** The path a worker must use for its resource cache: the neutral mount under bubblewrap, else the host's. */
    String cacheSeenByWorker(Path hostCache) {
        return isolatedFileSystem ? CACHE_MOUNT : hostCache.toString();
    }

    List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(prefix);
        wrapped.addAll(command);
        return wrapped;
    }

    static List<String> bwrapPrefix(Path writable, List<Path> readable) {
        List<String> args = new ArrayList<>(List.of(
                "bwrap", "--die-with-parent", "--new-session",
                "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                "--hostname", "sandbox",
                "--ro-bind", "/", "/",
                "--dev", "/dev",
                "--proc", "/proc",
                "--tmpfs", "/tmp"));
        // Home directories hold the keys and tokens worth stealing; hide them, then show back only what the
        // worker needs, read-only.
        Set<Path> hidden = new LinkedHashSet<>();
        for (String dir : new String[] {UserDirectories.current().home().toString(), System.getProperty("user.home"),
                "/root", "/home"}) {
            if (dir != null && Files.isDirectory(Path.of(dir)) && Path.of(dir).getNameCount() > 0) {
                hidden.add(Path.of(dir).toAbsolutePath().normalize());
            }
        }
        for (Path dir : hidden) {
            args.add("--tmpfs");
            args.add(dir.toString());
        }
        for (Path path : readable) {
            Path absolute = path.toAbsolutePath().normalize();
            if (Files.exists(absolute) && (absolute.startsWith("/tmp") || hidden.stream().anyMatch(absolute::startsWith))) {
                args.add("--ro-bind");
                args.add(absolute.toString());
                args.add(absolute.toString());
            }
        }
        args.add("--bind");
        args.add(writable.toString());
        args.add(CACHE_MOUNT);
        args.add("--chdir");
        args.add(CACHE_MOUNT);
        args.add("--");
        return args;
    }

    /** Directories a worker must be able to read: Java itself and every class-path entry's folder. */
    static List<Path> readablePaths(String classPath) {
        Set<Path> paths = new LinkedHashSet<>();
        paths.add(Path.of(System.getProperty("java.home")));
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                Path path = Path.of(entry).toAbsolutePath().normalize();
                // A jar's manifest Class-Path names jars beside it (lib/), so its whole folder is needed.
                paths.add(Files.isDirectory(path) ? path : path.getParent());
            }
        }
        return new ArrayList<>(paths);
    }

    private static boolean works(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
