package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OS layer, checked by what a process inside it can reach: each test runs a shell command through the
 * same bubblewrap and prlimit prefix a worker gets, as if the interpreter's own refusals had been broken.
 * The build bundles bubblewrap (bin/lib/bwrap.sh), so on Linux these run or fail, with the reason the server
 * would give; they skip only on other systems, which have no such layer.
 */
class OsSandboxTest {
    @TempDir
    static Path writable;

    private static OsSandbox sandbox;

    @BeforeAll
    static void detectAsTheServerDoes() {
        assumeTrue(System.getProperty("os.name", "").equals("Linux"), "the OS layer is Linux's");
        sandbox = OsSandbox.detect(OsSandbox.Mode.REQUIRED, writable, List.of(Path.of("/bin"), Path.of("/usr")));
    }

    private record Outcome(int exitCode, String output) {
    }

    private static Outcome inSandbox(String shellCommand) throws IOException, InterruptedException {
        List<String> command = sandbox.wrap(List.of("/bin/bash", "-c", shellCommand));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        return new Outcome(process.exitValue(), output);
    }

    @Test
    void attackOpenALoopbackConnectionReachesNoListener() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Outcome outcome = inSandbox("exec 3<>/dev/tcp/127.0.0.1/" + listener.getLocalPort() + " && echo connected");
            assertNotEquals(0, outcome.exitCode(), outcome.output());
            assertFalse(outcome.output().contains("connected"));
            listener.setSoTimeout(500);
            try {
                listener.accept().close();
                throw new AssertionError("the sandboxed process reached a listener on the host's loopback");
            } catch (SocketTimeoutException expected) {
                // nobody connected
            }
        }
    }

    @Test
    void attackReadACanaryFileInTmpFindsNothing() throws Exception {
        Path canary = Files.writeString(Path.of("/tmp", "pysandbox-canary-" + UUID.randomUUID()), "SECRET-CANARY");
        try {
            Outcome outcome = inSandbox("cat " + canary);
            assertNotEquals(0, outcome.exitCode());
            assertFalse(outcome.output().contains("SECRET-CANARY"));
        } finally {
            Files.delete(canary);
        }
    }

    @Test
    void attackWriteOutsideTheScratchDirectoryIsRefused() throws Exception {
        Path target = Path.of(System.getProperty("user.dir"), "target", "pysandbox-write-probe-" + UUID.randomUUID());
        Outcome outcome = inSandbox("echo planted > " + target);
        assertNotEquals(0, outcome.exitCode());
        assertFalse(Files.exists(target), "the file must not have been created");
        assertEquals(0, inSandbox("echo ok > " + OsSandbox.CACHE_MOUNT + "/scratch.txt").exitCode(), "the cache mount stays writable");
        assertTrue(Files.exists(writable.resolve("scratch.txt")), "and is the host's cache directory");
    }

    @Test
    void attackSignalTheServerFindsNoSuchProcess() throws Exception {
        long ourPid = ProcessHandle.current().pid();
        Outcome outcome = inSandbox("kill -0 " + ourPid + " && echo visible; ls /proc | grep -c '^[0-9]'");
        assertFalse(outcome.output().contains("visible"), outcome.output());
        int processesSeen = Integer.parseInt(outcome.output().lines().reduce((a, b) -> b).orElseThrow().strip());
        assertTrue(processesSeen < 10, "own PID namespace: sees only its own few processes, saw " + processesSeen);
    }

    @Test
    void resourceLimitsAreSet() throws Exception {
        String limits = inSandbox("cat /proc/self/limits").output();
        assertTrue(limits.matches("(?s).*Max core file size\\s+0\\s+0.*"), limits);
        assertTrue(limits.matches("(?s).*Max open files\\s+4096\\s+4096.*"), limits);
        assertTrue(limits.matches("(?s).*Max file size\\s+67108864\\s+67108864.*"), limits);
        assertTrue(limits.matches("(?s).*Max processes\\s+4096\\s+4096.*"), limits);
    }
}
