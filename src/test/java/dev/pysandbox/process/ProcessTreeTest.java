package dev.pysandbox.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ending a child ends everything it started, whatever the child does with its input and with SIGTERM, and never
 * hangs the caller (SECURITY.md: no process outlives the server).
 */
class ProcessTreeTest {
    private static final Duration GRACE = Duration.ofMillis(200);
    /** A guard against a hang, far above what ending takes (about three times the grace). */
    private static final Duration HANG = Duration.ofSeconds(30);

    private final List<ProcessHandle> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void attackAChildIgnoringEndOfInputAndSigtermIsKilledWithItsOwnChild() throws Exception {
        // The ignored SIGTERM is inherited by the sleep too: only SIGKILL ends either.
        Process child = start("trap '' TERM; sleep 1000000 & wait");
        List<ProcessHandle> tree = tree(child, 1);
        assertTimeoutPreemptively(HANG, () -> new ProcessTree(child).end(GRACE));
        assertEquals(List.of(), alive(tree));
    }

    @Test
    void attackAGrandchildLeftBehindByAChildThatExitsAtEndOfInputIsEnded() throws Exception {
        // The shell exits at end of input; its sleep, re-parented to init, is no longer its descendant.
        Process child = start("sleep 1000000 & read line");
        List<ProcessHandle> tree = tree(child, 1);
        assertTimeoutPreemptively(HANG, () -> new ProcessTree(child).end(GRACE));
        assertEquals(List.of(), alive(tree));
    }

    @Test
    void attackEndingAChildThatStoppedReadingDoesNotWaitForAWriterBlockedOnIt() throws Exception {
        Process child = start("sleep 1000000");
        OutputStream stdin = child.getOutputStream();
        Thread writer = Thread.ofPlatform().daemon().start(() -> {
            try {
                stdin.write(new byte[4 * 1024 * 1024]); // far more than a pipe holds: blocks holding the stream
            } catch (IOException expected) {
                // the child is gone
            }
        });
        while (Arrays.stream(writer.getStackTrace()).noneMatch(frame -> frame.getMethodName().equals("writeBytes"))) {
            Thread.onSpinWait(); // until the writer is inside the pipe's write, holding the stream's lock
        }
        assertTimeoutPreemptively(HANG, () -> new ProcessTree(child).end(GRACE));
        assertFalse(child.isAlive());
    }

    @Test
    void endingSeveralTreesEndsEveryOne() throws Exception {
        List<Process> children = List.of(start("trap '' TERM; sleep 1000000 & wait"), start("sleep 1000000 & read line"),
                start("read line"));
        List<ProcessHandle> all = new ArrayList<>();
        all.addAll(tree(children.get(0), 1));
        all.addAll(tree(children.get(1), 1));
        all.addAll(tree(children.get(2), 0));
        assertTimeoutPreemptively(HANG, () -> ProcessTree.endAll(children.stream().map(ProcessTree::new).toList(), GRACE));
        assertEquals(List.of(), alive(all));
    }

    private Process start(String script) throws IOException {
        Process process = new ProcessBuilder("sh", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(process.toHandle());
        return process;
    }

    /** The child and its descendants, once it has started the {@code descendants} its script starts. */
    private List<ProcessHandle> tree(Process child, int descendants) {
        while (child.descendants().count() < descendants) {
            Thread.onSpinWait();
        }
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(child.toHandle());
        child.descendants().forEach(tree::add);
        started.addAll(tree);
        return tree;
    }

    /** The processes still running (a zombie waiting for its parent to reap it runs nothing). */
    private static List<String> alive(List<ProcessHandle> processes) {
        List<String> running = new ArrayList<>();
        for (ProcessHandle process : processes) {
            if (process.isAlive() && !zombie(process)) {
                running.add(process.pid() + " " + process.info().commandLine().orElse("?"));
            }
        }
        return running;
    }

    private static boolean zombie(ProcessHandle process) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + process.pid() + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
