package dev.pysandbox.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A child process of the server and every process it started (a worker JVM under bubblewrap, a downstream MCP
 * server and the {@code node} its {@code npx} started), ended as one: nothing the server started may outlive it
 * (SECURITY.md). Ending goes in three steps: the child's stdin is closed (a well-behaved child exits at end of
 * input), then what is left of the tree gets SIGTERM, then SIGKILL; each step waits at most a grace period, so
 * ending never hangs the server's exit.
 *
 * <p>The tree is recorded while the child lives, and again before each step: once a process exits, its own
 * children are re-parented (to init) and are no longer anyone's descendants, so a tree looked up only at the
 * end would miss them. A process that leaves the tree on purpose before it is recorded (a double fork whose
 * parent exits) escapes it; only a PID namespace, such as the workers' bubblewrap, holds those.
 */
public final class ProcessTree {
    private static final long POLL_MILLIS = 20;
    /**
     * How long each step of ending a tree may wait when the server ends, at end of input and after SIGTERM:
     * short, because a client that closes us gives us about two seconds before its own SIGKILL (the TypeScript
     * SDK's close). Workers and downstream servers are ended with it alike.
     */
    public static final Duration AT_EXIT_GRACE = Duration.ofMillis(500);

    private final Process root;
    private final Set<ProcessHandle> known = ConcurrentHashMap.newKeySet();

    public ProcessTree(Process root) {
        this.root = root;
    }

    /**
     * Closes the child's stdin, asking it to exit. The close runs on a thread of its own: a writer blocked on a
     * child that stopped reading holds the stream, and the close would wait for it; the kill that follows
     * unblocks both.
     */
    public void closeInput() {
        record();
        Thread.ofPlatform().daemon().name("close-stdin-" + root.pid()).start(() -> {
            try {
                root.getOutputStream().close();
            } catch (IOException ignored) {
                // already closed, or the child is gone
            }
        });
    }

    /** SIGKILL to the whole tree now, for a child that cannot be trusted to exit. */
    public void kill() {
        record();
        known.forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly();
    }

    /** Ends the tree (stdin closed, then SIGTERM, then SIGKILL) within about three times {@code grace}. */
    public void end(Duration grace) {
        endAll(List.of(this), grace);
    }

    /**
     * Ends several trees at once, step by step across all of them, so that ending many takes no longer than
     * ending one: about three times {@code grace} at most, and as soon as every process is gone.
     */
    public static void endAll(Collection<ProcessTree> trees, Duration grace) {
        trees.forEach(ProcessTree::closeInput);
        if (awaitGone(trees, grace)) {
            return;
        }
        for (ProcessTree tree : trees) {
            tree.record();
            tree.known.forEach(ProcessHandle::destroy);
            tree.root.destroy();
        }
        if (awaitGone(trees, grace)) {
            return;
        }
        trees.forEach(ProcessTree::kill);
        // SIGKILL takes effect asynchronously: wait for it, so that what the caller does next (exit) finds the
        // tree gone, not dying.
        awaitGone(trees, grace);
    }

    /** Whether the child or any process recorded as its descendant still runs. */
    public boolean alive() {
        return root.isAlive() || known.stream().anyMatch(ProcessHandle::isAlive);
    }

    /**
     * The memory the child and its descendants hold now (their resident set, from Linux's {@code /proc}); 0 where
     * {@code /proc} does not say. For the server's metrics: a worker's JVM runs under bubblewrap, a child of it.
     */
    public long residentBytes() {
        if (!root.isAlive()) {
            return 0;
        }
        long bytes = residentBytes(root.pid());
        for (ProcessHandle descendant : root.descendants().toList()) {
            bytes += residentBytes(descendant.pid());
        }
        return bytes;
    }

    private static long residentBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").strip()) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone meanwhile, or not Linux
        }
        return 0;
    }

    /** Adds the child's current descendants to what is known of the tree. */
    private void record() {
        if (root.isAlive()) {
            root.descendants().forEach(known::add);
        }
    }

    private static boolean awaitGone(Collection<ProcessTree> trees, Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        List<ProcessTree> waiting = new ArrayList<>(trees);
        while (true) {
            waiting.removeIf(tree -> !tree.alive());
            if (waiting.isEmpty()) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                // Asked to hurry: the caller gets the SIGKILL step at once.
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
