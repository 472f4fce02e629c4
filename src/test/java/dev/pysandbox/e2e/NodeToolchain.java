package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** The tests that install an npm package need node and npm; without them they are skipped with a message. */
final class NodeToolchain {
    private NodeToolchain() {
    }

    /** Skips the calling tests, naming {@code which}, unless node and npm both run here. */
    static void assumePresent(String which) throws InterruptedException {
        assumeTrue(runs("node", "--version"), "node is not installed: the " + which + " tests are skipped");
        assumeTrue(runs("npm", "--version"), "npm is not installed: the " + which + " tests are skipped");
    }

    private static boolean runs(String... command) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
