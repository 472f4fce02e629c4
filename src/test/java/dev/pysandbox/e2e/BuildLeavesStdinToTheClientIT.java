package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.wire.WireCodec;

/**
 * The first start of a checkout builds before it serves, and an MCP host sends {@code initialize} the moment it
 * has launched the server, so the message waits on stdin while the build runs. The build must leave it there:
 * Maven's exec plugin hands its own stdin to the processes it starts (prepare-workers, the server's AOT
 * training), and a launcher that gave the build its stdin lost the client's first message, and the client
 * waited for an answer that never came (issue 38).
 *
 * <p>A real build takes minutes, so the launcher runs here in a checkout of its own: bin/ copied from this one,
 * no jar yet (so the launcher takes its build path, as on a first start), and in place of Maven a stub
 * {@code mvnw} that reads its stdin first, as Maven's exec plugin does, then "builds" by linking this
 * checkout's jar, libraries and worker runtime into place. What is tested is the launcher's own code: what
 * the build gets as stdin, and that the server it starts afterwards reads the client's first message.
 */
class BuildLeavesStdinToTheClientIT {
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"first-start\",\"version\":\"1\"}}}";

    @TempDir
    Path checkout;

    @Test
    void initializeSentAtLaunchIsAnsweredAfterTheFirstStartsBuild() throws Exception {
        Path launcher = checkoutNeedingABuild();
        List<String> log = new CopyOnWriteArrayList<>();
        // Without the OS layer: bwrap cannot bind the worker runtime this checkout links to from the real one, and
        // the server refuses to start without the layer unless told (OsLayerIT tests that refusal).
        Process server = new ProcessBuilder(launcher.toString(), "--workers=1", "--worker.jit-workers=0",
                "--worker.os-sandbox=off").start();
        Thread errors = new Thread(() -> new BufferedReader(new InputStreamReader(server.getErrorStream(),
                StandardCharsets.UTF_8)).lines().forEach(line -> {
                    log.add(line);
                    System.err.println("[first start] " + line);
                }), "first-start-stderr");
        errors.setDaemon(true);
        errors.start();
        try (OutputStream stdin = server.getOutputStream()) {
            // At once, as a host does: the launcher is still deciding whether to build.
            stdin.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            BufferedReader stdout = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String answer;
            try {
                answer = CompletableFuture.supplyAsync(() -> readLine(stdout)).get(120, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("initialize sent at launch was not answered within 120 s; the launcher's log: " + log);
            }
            assertTrue(log.contains("python-sandbox-mcp: building (first start or sources changed); this takes a few minutes..."),
                    "the launcher did not take its build path: " + log);
            assertTrue(log.contains("stub build: stdin was empty"), "the build read the client's stdin: " + log);
            assertTrue(answer != null, "the server closed stdout without answering; its log: " + log);
            @SuppressWarnings("unchecked")
            Map<String, Object> response = (Map<String, Object>) WireCodec.parseValue(answer);
            assertEquals(1L, ((Number) response.get("id")).longValue(), answer);
            assertTrue(response.get("result") instanceof Map, answer);
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.descendants().forEach(ProcessHandle::destroyForcibly);
                server.destroyForcibly();
            }
        }
    }

    /**
     * A checkout whose launcher must build: this checkout's bin/ and config/, a pom.xml, no target/ yet, and a
     * stub {@code mvnw} that links the real build's outputs into target/ once it has read its stdin.
     */
    private Path checkoutNeedingABuild() throws IOException {
        Path root = SandboxServer.PROJECT_ROOT;
        Path target = root.resolve("target");
        Files.createDirectories(checkout.resolve("bin/lib"));
        Files.createDirectories(checkout.resolve("config"));
        Path launcher = checkout.resolve("bin/python-sandbox-mcp");
        Files.copy(root.resolve("bin/python-sandbox-mcp"), launcher, StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(root.resolve("bin/lib/jdk.sh"), checkout.resolve("bin/lib/jdk.sh"));
        Files.copy(root.resolve("config/python-sandbox-mcp.properties"), checkout.resolve("config/python-sandbox-mcp.properties"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
        // The server's AOT cache is left out: the JVM takes it only with the jars, at the paths, it was trained on.
        Path stub = checkout.resolve("mvnw");
        Files.writeString(stub, """
                #!/usr/bin/env bash
                # Stands in for ./mvnw -q -B -DskipTests package. Maven's exec plugin pumps its stdin into the
                # processes it starts; this reads it the same way (ten seconds at most: the test writes at once).
                if IFS= read -r -t 10 line; then
                  echo "stub build: read from stdin: $line" >&2
                else
                  echo "stub build: stdin was empty" >&2
                fi
                for part in python-sandbox-mcp.jar lib worker-runtime; do
                  ln -s "%s/$part" "target/$part"
                done
                """.formatted(target));
        Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
        return launcher;
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            return null;
        }
    }
}
