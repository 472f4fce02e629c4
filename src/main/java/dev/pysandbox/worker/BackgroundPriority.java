package dev.pysandbox.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Lowers the calling thread's scheduling priority to the lowest (nice 19), so that work done while a worker is
 * idle (its warm-up) takes only the CPU nothing else wants: on two cores, the warm-up of one worker competed with
 * the calls another worker was serving and with the JVM compiler threads those calls need (BENCHMARKS.md,
 * "Warm-up"). Linux gives each Java thread its own task id, whose nice value can be set alone; Java has no call
 * for it, so {@code renice} is run on the task id the thread reads from {@code /proc/thread-self}. Best effort:
 * where either is missing the thread keeps its priority, and the reason is returned.
 */
final class BackgroundPriority {
    private BackgroundPriority() {
    }

    /** @return null when the calling thread now runs at nice 19, else why it does not */
    static String lowerCurrentThread() {
        try {
            // "PID/task/TID", relative to /proc
            String task = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            String tid = task.substring(task.lastIndexOf('/') + 1);
            Process renice = new ProcessBuilder("renice", "-n", "19", "-p", tid)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!renice.waitFor(5, TimeUnit.SECONDS)) {
                renice.destroyForcibly();
                return "renice did not finish";
            }
            return renice.exitValue() == 0 ? null : "renice exited with " + renice.exitValue();
        } catch (IOException | UnsupportedOperationException | StringIndexOutOfBoundsException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
