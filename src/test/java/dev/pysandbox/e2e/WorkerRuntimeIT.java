package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Workers run GraalPy interpreter-only by default and with the Graal JIT on {@code worker.jit=auto}, each kind
 * from the worker runtime the build prepared, on its own GraalPy ({@code graalpy.version} and
 * {@code graalpy.jit.version} in pom.xml, which failsafe passes on) with its own AOT cache; and the server itself
 * starts with the AOT cache the build trained for it.
 */
class WorkerRuntimeIT {
    /**
     * The build prepares the workers' runtime only on JDK 25, the one GraalPy 25.0's JIT accepts; the tests run on
     * the build's JDK. On 25 a missing runtime is a failure, not a skip: the build only warns when linking fails.
     */
    static void assumeTheBuildPreparedTheWorkerRuntime() {
        assumeTrue(Runtime.version().feature() == 25, "the build prepares the workers' runtime on JDK 25 only");
        assertTrue(Files.isExecutable(SandboxServer.PROJECT_ROOT.resolve("target/worker-runtime/jdk/bin/java")),
                "the build ran on JDK 25 but prepared no worker runtime: see its prepare-workers output");
    }

    /** What the guest says its GraalPy is. */
    private static final String GRAALPY_VERSION = "import sys\nprint('.'.join(map(str, sys.implementation.version[:3])))";

    @Test
    void workersRunTheOptimizingRuntimeFromThePreparedJdkWithItsAotCache() {
        assumeTheBuildPreparedTheWorkerRuntime();
        String tag = "pysandbox.jit-it=" + ProcessHandle.current().pid();
        try (SandboxServer server = SandboxServer.start("--workers=1", "--worker.jit=auto", "--worker.jvm-options=-D" + tag)) {
            assertEquals("1\n", server.python("print(1)").get("stdout"));
            assertTrue(server.log.stream().anyMatch(l -> l.contains("is ready on GraalVM CE, AOT cache in use")),
                    () -> "the optimizing engine, and the JVM mapped the AOT cache: " + server.log);
            assertFalse(server.log.stream().anyMatch(l -> l.contains("Interpreted") || l.contains("interpreter-only")));
            List<String> workers = SandboxServer.workersTagged(tag).stream()
                    .map(SandboxServer::commandLine).toList();
            assertEquals(1, workers.size(), workers::toString);
            String command = workers.get(0);
            assertTrue(command.contains("worker-runtime/jdk/bin/java"), command);
            assertTrue(command.contains("-XX:+EnableJVMCI") && command.contains("jdk.graal.compiler"), command);
            assertTrue(command.contains("-XX:AOTCache=") && command.contains("worker-jit.aot"), command);
            assertTrue(command.contains("worker-runtime/jit-lib/python-sandbox-mcp-jit-worker.jar"), command);
            assertFalse(command.contains("target/python-sandbox-mcp.jar"),
                    "the server's jar would bring the server's GraalPy in through its manifest: " + command);
            assertEquals(System.getProperty("graalpy.jit.version") + "\n", server.python(GRAALPY_VERSION).get("stdout"));
        }
    }

    /** One server for both: the server's own AOT cache, and its default workers' runtime and cache. */
    @Test
    void theServerAndItsDefaultInterpreterOnlyWorkersStartFromThePreparedJdkWithTheAotCachesTheBuildTrained() {
        assumeTheBuildPreparedTheWorkerRuntime();
        Path cache = SandboxServer.PROJECT_ROOT.resolve("target/server.aot");
        assertTrue(Files.isRegularFile(cache), "the build trained no server AOT cache; see target/server-aot-training.log");
        String tag = "pysandbox.interpreter-it=" + ProcessHandle.current().pid();
        try (SandboxServer server = SandboxServer.start("--workers=1", "--worker.jvm-options=-D" + tag)) {
            assertEquals(4, server.client.listTools().tools().size()); // execute_code, run_python, validate_code, inspect_session
            String serverCommand = SandboxServer.serverTagged(tag).info().commandLine().orElse("");
            assertTrue(serverCommand.contains("-XX:AOTCache=" + cache), serverCommand);

            assertEquals("1\n", server.python("print(1)").get("stdout"));
            assertTrue(server.log.stream().anyMatch(l -> l.contains("is ready on Interpreted, AOT cache in use")),
                    () -> "the interpreter-only engine, and the JVM mapped its AOT cache: " + server.log);
            assertFalse(server.log.stream().anyMatch(l -> l.contains("WARN")), () -> String.join("\n", server.log));
            // Whatever the JVM has to say about the server's cache comes as an [aot] line on stderr (-Xlog:all=warning).
            assertFalse(server.log.stream().anyMatch(l -> l.contains("[aot]")), () -> String.join("\n", server.log));
            String command = SandboxServer.commandLine(SandboxServer.workersTagged(tag).get(0));
            assertTrue(command.contains("worker-runtime/jdk/bin/java"), command);
            assertTrue(command.contains("-Dtruffle.UseFallbackRuntime=true"), command);
            assertTrue(command.contains("-XX:AOTCache=") && command.contains("worker-interpreter.aot"), command);
            assertFalse(command.contains("-XX:+EnableJVMCI"), command);
            assertEquals(System.getProperty("graalpy.version") + "\n", server.python(GRAALPY_VERSION).get("stdout"));
        }
    }
}
