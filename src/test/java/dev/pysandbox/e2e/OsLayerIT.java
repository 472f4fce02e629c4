package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real workers run inside the OS layer by default: under the bubblewrap the build bundles (bin/lib/bwrap.sh),
 * whether or not one is installed, with the resource limits set. Where no bwrap can run, the server does not
 * start. Both hold on Linux, the only system this suite runs on.
 */
class OsLayerIT {
    private static final Path BUNDLED = SandboxServer.PROJECT_ROOT.resolve("target/bwrap");

    @TempDir
    Path temp;

    @Test
    void workersRunUnderTheBundledBubblewrapWithResourceLimitsByDefault() throws Exception {
        String tag = "pysandbox.test.tag=" + UUID.randomUUID();
        try (SandboxServer server = SandboxServer.start("--workers=1", "--worker.jvm-options=-D" + tag)) {
            assertEquals("success", server.python("pass").get("status"));
            List<ProcessHandle> workers = SandboxServer.workersTagged(tag);
            assertEquals(1, workers.size());
            ProcessHandle worker = workers.get(0);
            ProcessHandle bwrap = worker.parent().orElseThrow();
            assertEquals(BUNDLED.resolve("bwrap").toString(), bwrap.info().command().orElse(""),
                    "the worker's parent is the bundled bwrap, not one from PATH");
            // Its own libraries (bin/lib/bwrap.sh says why they come along), and the worker does not inherit them.
            String maps = Files.readString(Path.of("/proc", Long.toString(bwrap.pid()), "maps"));
            assertTrue(maps.contains(BUNDLED.resolve("lib/libselinux.so.1").toString()), "bwrap runs with the bundled libselinux");
            String environment = new String(Files.readAllBytes(Path.of("/proc", Long.toString(worker.pid()), "environ")),
                    StandardCharsets.UTF_8);
            assertFalse(environment.contains("LD_LIBRARY_PATH"), environment.replace('\0', ' '));
            Map<String, Object> paths = server.python("import json, sys\nprint(json.__file__)\nprint(sys.prefix)");
            String stdout = (String) paths.get("stdout");
            assertTrue(stdout.startsWith("/tmp/python-sandbox/"), "module paths name the neutral mount: " + stdout);
            assertTrue(!stdout.contains(System.getProperty("user.home")), "no host home in module paths: " + stdout);
            String limits = Files.readString(Path.of("/proc", Long.toString(worker.pid()), "limits"));
            assertTrue(limits.matches("(?s).*Max core file size\\s+0\\s+0.*"), limits);
            assertTrue(limits.matches("(?s).*Max open files\\s+4096\\s+4096.*"), limits);
            assertTrue(server.log.stream().anyMatch(line -> line.contains("OS sandbox for workers: rlimits")
                    && line.contains(BUNDLED.resolve("bwrap") + " (bundled)")), "the log says which bwrap");
        }
    }

    @Test
    void withNoBwrapThatRunsTheServerRefusesToStartSayingWhyAndHowToFix() throws Exception {
        // The server's jar and class path in a folder without bwrap/ beside them, and first on PATH a bwrap that
        // fails as one does where the kernel forbids user namespaces.
        Path home = Files.createDirectories(temp.resolve("home"));
        Path target = SandboxServer.PROJECT_ROOT.resolve("target");
        Files.createSymbolicLink(home.resolve("python-sandbox-mcp.jar"), target.resolve("python-sandbox-mcp.jar"));
        Files.createSymbolicLink(home.resolve("lib"), target.resolve("lib"));
        Path tools = Files.createDirectories(temp.resolve("tools"));
        Path broken = tools.resolve("bwrap");
        Files.writeString(broken, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
        Files.setPosixFilePermissions(broken, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path log = temp.resolve("server.log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", home.resolve("python-sandbox-mcp.jar").toString(),
                "--config", SandboxServer.PROJECT_ROOT.resolve("config/python-sandbox-mcp.properties").toString(),
                "--workers=1", "--worker.jit-workers=0")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PATH", tools + ":" + System.getenv("PATH"));
        Process server = builder.start();
        server.getOutputStream().close();
        assertTrue(server.waitFor(120, TimeUnit.SECONDS), "the server exits by itself");
        String output = Files.readString(log);
        assertEquals(1, server.exitValue(), output);
        List<String> refusal = output.lines().filter(line -> line.contains("OS sandbox layer cannot run here")).toList();
        assertEquals(1, refusal.size(), output);
        String line = refusal.get(0);
        assertTrue(line.contains(broken + " (from PATH): bwrap: setting up uid map: Permission denied"), line);
        assertTrue(line.contains("--worker.os-sandbox=off"), line);
        assertFalse(output.contains("\tat "), "no stack trace: " + output);
        assertFalse(output.contains("starting 1 worker(s)"), output);
    }
}
