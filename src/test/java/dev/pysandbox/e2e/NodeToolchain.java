package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The tests that install an npm package need node and npm. bin/test installs Debian's where none is on PATH, so
 * their absence fails these tests instead of skipping them: a skip CI always took would be a check that cannot fail.
 */
final class NodeToolchain {
    private NodeToolchain() {
    }

    /** Fails the calling tests, naming {@code which}, unless node and npm both run here. */
    static void requirePresent(String which) throws InterruptedException {
        assertTrue(runs("node", "--version"), "node is not installed (bin/test installs it): the " + which + " tests need it");
        assertTrue(runs("npm", "--version"), "npm is not installed (bin/test installs it): the " + which + " tests need it");
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
