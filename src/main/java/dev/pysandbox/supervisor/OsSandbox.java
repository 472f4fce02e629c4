package dev.pysandbox.supervisor;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.host.UserDirectories;
import dev.pysandbox.release.Release;

/**
 * The operating-system layer around each worker, for the day the interpreter's own refusals fail:
 * resource limits through {@code prlimit}, and a {@code bwrap} (bubblewrap) sandbox with no network, its own
 * PID, IPC and UTS namespaces, a read-only view of the file system, and the user's home and {@code /tmp}
 * hidden except for what the worker needs (its class path and Java, read-only; its resource cache, writable,
 * mounted at {@link #CACHE_MOUNT}).
 *
 * <p>The layer is never silently absent (SECURITY.md, "Known gaps"). On Linux it is whole or the server does
 * not start, unless {@code worker.os-sandbox=off}: the build bundles bwrap ({@link Bubblewrap}), so what is
 * left to fail is the kernel or a container forbidding the user namespaces bwrap makes, and that is found by
 * running it once, then explained ({@link UserNamespaceLimits}). Elsewhere (macOS, from a checkout) there is no
 * such layer: {@code auto} runs without it and says so, {@code required} refuses.
 */
final class OsSandbox {
    private static final Logger log = LoggerFactory.getLogger(OsSandbox.class);

    /** Per worker: no core dumps, a bounded number of open files, files written no larger than this. */
    static final List<String> RLIMITS = List.of("--core=0", "--nofile=4096", "--fsize=" + (64L << 20), "--nproc=4096");

    /**
     * {@code worker.os-sandbox}: AUTO requires the layer on Linux and runs without it elsewhere, REQUIRED requires
     * it everywhere, OFF never uses it.
     */
    enum Mode { AUTO, OFF, REQUIRED }

    /**
     * Where a worker under bubblewrap sees its resource cache. Module paths such as {@code json.__file__}
     * and {@code sys.prefix} then name this neutral folder instead of the host user's home.
     */
    static final String CACHE_MOUNT = "/tmp/python-sandbox";

    /** How long a probe may take; each takes milliseconds. */
    private static final long PROBE_SECONDS = 10;

    /**
     * What a probe runs: {@code env} with an empty environment, which prints nothing and exits 0. Not
     * {@code true}, which a host's short PATH may lack (a release started as ReleaseIT starts it); {@code env}
     * must be on PATH anyway, since it starts the bundled bwrap ({@link Bubblewrap#candidates}). By its real
     * path, as a worker's java is named: inside the layer {@code /tmp} and the home folders are hidden, and a
     * PATH entry there (such a test's folder of links) would name nothing.
     */
    static List<String> trivialCommand(String path) {
        for (String directory : path == null ? new String[0] : path.split(File.pathSeparator)) {
            Path env = Path.of(directory.isBlank() ? "." : directory, "env");
            if (Files.isRegularFile(env) && Files.isExecutable(env)) {
                try {
                    return List.of(env.toRealPath().toString(), "-i");
                } catch (IOException e) {
                    break;
                }
            }
        }
        return List.of("env", "-i");
    }

    /** Runs a command once: empty when it exited 0, else why not, in one line. */
    interface Probe {
        Optional<String> failure(List<String> command);
    }

    /**
     * What detection asks of the machine, so that tests can give another.
     *
     * @param osName  {@code os.name}
     * @param home    the folder of the server's jar, where the bundled bwrap is ({@link Bubblewrap#candidates})
     * @param path    the {@code PATH} to find bwrap on
     * @param procSys {@code /proc/sys}, which explains a bwrap that cannot make namespaces
     */
    record Host(String osName, Path home, String path, Path procSys, Probe probe) {
        static Host current() {
            return new Host(System.getProperty("os.name", ""), Release.home(), System.getenv("PATH"),
                    Path.of("/proc/sys"), OsSandbox::run);
        }

        boolean linux() {
            return osName.equals("Linux");
        }
    }

    private final List<String> prefix;
    private final boolean isolatedFileSystem;
    private final Optional<String> absence;

    private OsSandbox(List<String> prefix, boolean isolatedFileSystem, Optional<String> absence) {
        this.prefix = List.copyOf(prefix);
        this.isolatedFileSystem = isolatedFileSystem;
        this.absence = absence;
    }

    static Mode mode(String raw) {
        return Mode.valueOf(raw.strip().toUpperCase(Locale.ROOT));
    }

    /**
     * Finds what this machine offers and builds the command prefix for workers.
     *
     * @param writable the one directory a worker may write (its resource cache)
     * @param readable what a worker must read besides the system directories (Java, its class path)
     * @throws OsSandboxUnavailable when the mode asks for the layer and it cannot run here
     */
    static OsSandbox detect(Mode mode, Path writable, List<Path> readable) {
        return detect(mode, Host.current(), writable, readable);
    }

    static OsSandbox detect(Mode mode, Host host, Path writable, List<Path> readable) {
        if (mode == Mode.OFF) {
            log.warn("OS sandbox for workers: off (worker.os-sandbox=off): workers run without resource limits and"
                    + " without bubblewrap's network, file-system and PID isolation");
            return new OsSandbox(List.of(), false, Optional.of("switched off by the operator (worker.os-sandbox=off)"));
        }
        if (!host.linux()) {
            if (mode == Mode.REQUIRED) {
                throw new OsSandboxUnavailable("worker.os-sandbox=required, but the workers' OS sandbox layer"
                        + " (bubblewrap, prlimit) is Linux's and this is " + host.osName()
                        + ": set worker.os-sandbox=auto or off to run workers without it");
            }
            log.warn("OS sandbox for workers: none on {} (worker.os-sandbox=auto): bubblewrap and prlimit are"
                    + " Linux's, so workers run without that layer (README, \"Platforms\")", host.osName());
            return new OsSandbox(List.of(), false, Optional.of("not available on " + host.osName()
                    + ", which has no bubblewrap"));
        }
        List<String> problems = new ArrayList<>();
        List<String> prefix = new ArrayList<>();
        List<String> layers = new ArrayList<>();
        List<String> trivial = trivialCommand(host.path());
        List<String> prlimitProbe = new ArrayList<>(List.of("prlimit", "--core=0", "--"));
        prlimitProbe.addAll(trivial);
        Optional<String> prlimit = host.probe().failure(prlimitProbe);
        if (prlimit.isEmpty()) {
            prefix.add("prlimit");
            prefix.addAll(RLIMITS);
            prefix.add("--");
            layers.add("rlimits (core 0, 4096 files, 64 MiB files, 4096 processes)");
        } else {
            problems.add("prlimit, for the resource limits, does not run (" + prlimit.get()
                    + "): install util-linux");
        }
        List<Bubblewrap> candidates = Bubblewrap.candidates(host.home(), host.path());
        List<String> failures = new ArrayList<>();
        Bubblewrap chosen = null;
        for (Bubblewrap candidate : candidates) {
            List<String> probe = new ArrayList<>(bwrapPrefix(candidate, writable, readable));
            probe.addAll(trivial);
            Optional<String> failure = host.probe().failure(probe);
            if (failure.isEmpty()) {
                chosen = candidate;
                break;
            }
            failures.add(candidate.describe() + ": " + failure.get());
        }
        if (candidates.isEmpty()) {
            problems.add("there is no bwrap: the build bundles Debian's bubblewrap in " + Bubblewrap.BUNDLE
                    + "/ beside the server's jar and did not here (no apt-get, or no Debian archive: bin/lib/bwrap.sh),"
                    + " and none is on PATH; rebuild where apt-get works, or install bubblewrap");
        } else if (chosen == null) {
            problems.add("bwrap does not run here (" + String.join("; ", failures) + "); "
                    + String.join("; ", UserNamespaceLimits.explain(host.procSys())));
        } else {
            prefix.addAll(bwrapPrefix(chosen, writable, readable));
            layers.add("bubblewrap (no network, own PID/IPC/UTS namespaces, read-only file system, home and /tmp"
                    + " hidden; " + chosen.describe() + ")");
        }
        if (!problems.isEmpty()) {
            throw new OsSandboxUnavailable("the workers' OS sandbox layer cannot run here: " + String.join("; ", problems)
                    + ". Fix that, or start the server with worker.os-sandbox=off (--worker.os-sandbox=off) to run"
                    + " workers without the layer knowingly (README, \"Security model\")");
        }
        log.info("OS sandbox for workers: {}", String.join(" + ", layers));
        return new OsSandbox(prefix, true, Optional.empty());
    }

    /** Why workers run without the layer (for clients, so no host paths); empty when they run inside it. */
    Optional<String> absence() {
        return absence;
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

    static List<String> bwrapPrefix(Bubblewrap bwrap, Path writable, List<Path> readable) {
        List<String> args = new ArrayList<>(bwrap.command());
        args.addAll(List.of("--die-with-parent", "--new-session",
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

    /** The real {@link Probe}: the first line the command printed, or its exit code, when it failed. */
    private static Optional<String> run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(PROBE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.of("did not finish within " + PROBE_SECONDS + " s");
            }
            if (process.exitValue() == 0) {
                return Optional.empty();
            }
            // A probe prints a line or two: the pipe holds them until it has exited.
            String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(line -> !line.isEmpty()).findFirst().orElse("");
            return Optional.of(said.isEmpty() ? "exit code " + process.exitValue() : said);
        } catch (IOException e) {
            return Optional.of("cannot be started: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }
}
