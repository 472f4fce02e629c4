package dev.pysandbox.packages;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.execution.Notice;

/**
 * Auto-install ({@code packages.auto-install}): when code imports a module the import policy allows but
 * nobody installed, the server installs the package that provides it, while the call itself fails at once
 * with "retry in a few seconds". The sandbox never waits on the network, and never reaches it.
 *
 * <p>Only modules {@link KnownPackages} maps to a distribution are installed, never a name the guest made up.
 * Installs run one at a time, each in a JVM of its own (the operator's {@code install} command, with the
 * server's pip settings), and are stopped after {@code packages.auto-install-timeout-seconds} (the defaults
 * file says why 180 s). A module whose install failed is not tried again for {@link #RETRY_AFTER}. Running
 * servers pick up the new package generation with their next call.
 */
public final class AutoInstaller implements AutoCloseable {
    static final Duration RETRY_AFTER = Duration.ofMinutes(5);
    private static final Logger log = LoggerFactory.getLogger(AutoInstaller.class);

    private final Path packagesDir;
    private final InstallerJvm jvm;
    private final Duration limit;
    private final Consumer<Notice> notices;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    private final Map<String, Instant> failed = new ConcurrentHashMap<>();
    private final ExecutorService installs = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "auto-install");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param packagesDir the server's package folder ({@code packages.dir})
     * @param jvm         the JVM each install runs in
     * @param limit       how long an install may run before it is stopped ({@code packages.auto-install-timeout-seconds})
     * @param notices     where the client's user hears that a package was installed or could not be
     */
    public AutoInstaller(Path packagesDir, InstallerJvm jvm, Duration limit, Consumer<Notice> notices) {
        this.packagesDir = packagesDir;
        this.jvm = jvm;
        this.limit = limit;
        this.notices = notices;
    }

    /** Starts installing what provides these modules, unless it is being installed or failed lately. */
    public void request(Collection<String> modules) {
        for (String module : modules) {
            String distribution = KnownPackages.distribution(module).orElse(null);
            Instant lastFailure = failed.get(module);
            if (distribution == null || (lastFailure != null && lastFailure.plus(RETRY_AFTER).isAfter(Instant.now()))
                    || !queued.add(module)) {
                continue;
            }
            installs.execute(() -> {
                try {
                    install(module, distribution);
                } finally {
                    queued.remove(module);
                }
            });
        }
    }

    private void install(String module, String distribution) {
        log.info("auto-install: installing {} for 'import {}'", distribution, module);
        Deque<String> lastLines = new ArrayDeque<>();
        try {
            Process process = new ProcessBuilder(command(distribution)).redirectErrorStream(true).start();
            process.getOutputStream().close();
            Thread reader = new Thread(() -> readLines(process, lastLines), "auto-install-output");
            reader.setDaemon(true);
            reader.start();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                fail(module, distribution, "it took longer than " + limit.toSeconds() + " s");
                return;
            }
            reader.join(1000);
            if (process.exitValue() == 0) {
                failed.remove(module);
                notices.accept(Notice.info("Installed " + distribution + " for 'import " + module + "'; calls from now"
                        + " on can import it."));
            } else {
                String reason;
                synchronized (lastLines) {
                    reason = lastLines.isEmpty() ? "exit code " + process.exitValue() : lastLines.peekLast();
                }
                fail(module, distribution, reason);
            }
        } catch (IOException e) {
            fail(module, distribution, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fail(String module, String distribution, String reason) {
        failed.put(module, Instant.now());
        log.warn("auto-install of {} for 'import {}' failed: {}", distribution, module, reason);
        notices.accept(Notice.warning("Could not install " + distribution + " for 'import " + module + "': " + reason
                + ". Not tried again for " + RETRY_AFTER.toMinutes() + " minutes."));
    }

    /** The operator's {@code install} command in an installer JVM of its own, on the server's class path. */
    private List<String> command(String distribution) {
        return jvm.command(List.of(), "dev.pysandbox.Main", List.of("install", "--packages.dir=" + packagesDir, distribution));
    }

    private static void readLines(Process process, Deque<String> lastLines) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                log.debug("auto-install: {}", line);
                if (!line.isBlank()) {
                    synchronized (lastLines) {
                        lastLines.addLast(line.strip());
                        if (lastLines.size() > 20) {
                            lastLines.removeFirst();
                        }
                    }
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    @Override
    public void close() {
        installs.shutdownNow();
    }
}
