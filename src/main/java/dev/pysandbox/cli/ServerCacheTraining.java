package dev.pysandbox.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.pysandbox.release.Release;
import dev.pysandbox.supervisor.TrainedCache;

/**
 * Build time ({@code pom.xml}, after prepare-workers): trains the server JVM's AOT cache, so that a client's
 * {@code initialize} and {@code tools/list} are answered sooner after launch. The JVM then maps the classes
 * the server loaded and linked in training (the MCP SDK, Jackson, the schema validator) instead of loading
 * them from jars again.
 *
 * <p>Training launches the server exactly as users do, through {@code bin/python-sandbox-mcp}, which adds
 * {@code -XX:AOTCacheOutput} when {@value #OUTPUT_VARIABLE} is set (and {@code -XX:AOTCache} when the cache
 * exists), and drives it through a short MCP session on stdio. Like prepare-workers it never fails the
 * build: without the cache the server starts slower, nothing else.
 *
 * <p>Usage: {@code ServerCacheTraining LAUNCHER CACHE}.
 */
public final class ServerCacheTraining {
    static final String OUTPUT_VARIABLE = "PYSANDBOX_TRAIN_AOT_CACHE";
    /** The JDK whose one-step training ({@code -XX:AOTCacheOutput}, JEP 514) the launcher relies on. */
    private static final int AOT_JDK = 25;
    private static final long LIMIT_MINUTES = 5;

    /** A session touching what a client's first minute touches: the handshake, both tools, and bad input. */
    private static final List<String> SESSION = List.of(
            """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},\
            "clientInfo":{"name":"aot-training","version":"1"}}}""",
            """
            {"jsonrpc":"2.0","method":"notifications/initialized"}""",
            """
            {"jsonrpc":"2.0","id":2,"method":"tools/list"}""",
            """
            {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"execute_code","arguments":\
            {"language":"python","code":"print(1)","timeout":60}}}""",
            """
            {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_python","arguments":{"code":"print(2)"}}}""",
            """
            {"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"execute_code","arguments":{"language":"ruby"}}}""",
            """
            {"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}""",
            "{not json");

    private ServerCacheTraining() {
    }

    public static void main(String[] args) {
        try {
            train(Path.of(args[0]), Path.of(args[1]));
        } catch (Exception e) {
            // The build goes on: a server without its cache only starts slower.
            System.err.println("prepare-server: WARNING no server AOT cache (" + e + ")");
        }
    }

    private static void train(Path launcherPath, Path cachePath) throws Exception {
        Path launcher = launcherPath.toAbsolutePath();
        Path cacheFile = cachePath.toAbsolutePath();
        int feature = Runtime.version().feature();
        if (feature < AOT_JDK) {
            System.err.println("prepare-server: JDK " + feature + " cannot train an AOT cache in one step (JDK "
                    + AOT_JDK + "+ can); the server starts without one");
            return;
        }
        TrainedCache trained = new TrainedCache(cacheFile, cacheFile.resolveSibling(cacheFile.getFileName() + ".trained-with"));
        String trainedAs = System.getProperty("java.home") + " " + Runtime.version();
        Path jar = Release.jar();
        List<Path> inputs = new ArrayList<>(TrainedCache.jarAndLibraries(jar));
        inputs.add(launcher);
        // The launcher runs the server on the Java the build linked, when there is one: a new link is a new JVM.
        Path linkedRuntime = jar.resolveSibling("worker-runtime").resolve("jdk.linked-from");
        if (Files.exists(linkedRuntime)) {
            inputs.add(linkedRuntime);
        }
        if (trained.isCurrent(trainedAs, inputs)) {
            System.err.println("prepare-server: server AOT cache is up to date");
            return;
        }
        trained.forget();
        System.err.println("prepare-server: training the server AOT cache (half a minute)");
        Path log = cacheFile.resolveSibling("server-aot-training.log");
        // Without the OS layer: on Linux the server does not start where bubblewrap cannot run, and a build may run
        // where it cannot (a container build, deploy/docker/Dockerfile); the training session runs only our code.
        // Nor the worker's warm-up and preloads: they load no class of the server's, and only took the cores the
        // training needed (BENCHMARKS.md, "Release").
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "--workers=1", "--worker.jit-workers=0",
                "--worker.os-sandbox=off", "--worker.warm-up-runs=0", "--worker.preload=").redirectError(log.toFile());
        builder.environment().put(OUTPUT_VARIABLE, cacheFile.toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process server = builder.start();
        CompletableFuture.delayedExecutor(LIMIT_MINUTES, TimeUnit.MINUTES).execute(server::destroyForcibly);
        try (OutputStream in = server.getOutputStream();
                BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            for (String message : SESSION) {
                in.write((message + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                if (message.contains("\"id\":") || !message.startsWith("{\"jsonrpc\"")) {
                    if (out.readLine() == null) {
                        break;
                    }
                }
            }
        } catch (IOException e) {
            System.err.println("prepare-server: training session failed (" + e + "); see " + log);
        }
        // Closing stdin ends the server, and its JVM writes the cache on the way out.
        if (!server.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
            server.destroyForcibly().waitFor();
        }
        if (server.exitValue() != 0 || !Files.isRegularFile(cacheFile)) {
            System.err.println("prepare-server: WARNING no server AOT cache was written; see " + log);
            return;
        }
        trained.remember(trainedAs);
        System.err.println("prepare-server: server AOT cache written (" + Files.size(cacheFile) / (1024 * 1024) + " MB)");
    }
}
