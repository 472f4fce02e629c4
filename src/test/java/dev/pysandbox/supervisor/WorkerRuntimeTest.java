package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which Java and options a worker gets, for each state of the prepared worker-runtime folder. */
class WorkerRuntimeTest {
    @TempDir
    Path dir;

    @Test
    void jitOffUsesTheServersOwnJavaWithNoJitOptions() throws IOException {
        prepare("/app.jar");
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "off", "/app.jar");
        assertFalse(runtime.optimizing());
        assertEquals(Path.of(System.getProperty("java.home"), "bin", "java"), runtime.java());
        assertEquals(java.util.List.of(), runtime.jvmOptions());
        assertTrue(runtime.description().contains("worker.jit=off"));
    }

    @Test
    void missingRuntimeFallsBackToTheInterpreterAndSaysHowToGetTheJit() {
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "auto", "/app.jar");
        assertFalse(runtime.optimizing());
        assertTrue(runtime.description().contains("JDK 25"), runtime.description());
    }

    @Test
    void preparedRuntimeBringsTheCompilerInOnTheModulePathWithTheAotCache() throws IOException {
        prepare("/app.jar");
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "auto", "/app.jar");
        assertTrue(runtime.optimizing());
        assertEquals(dir.resolve("jdk/bin/java"), runtime.java());
        String options = String.join(" ", runtime.jvmOptions());
        assertTrue(options.contains("-XX:+EnableJVMCI"), options);
        assertTrue(options.contains("--module-path " + dir.resolve("compiler/compiler.jar").toAbsolutePath()), options);
        assertTrue(options.contains("--add-modules jdk.graal.compiler"), options);
        assertFalse(options.contains("--upgrade-module-path"), "that option switches the AOT cache off");
        assertTrue(options.contains("-XX:AOTCache=" + dir.resolve("worker.aot")), options);
    }

    @Test
    void aotCacheTrainedOnAnotherClassPathIsLeftOut() throws IOException {
        prepare("/elsewhere/app.jar");
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "auto", "/app.jar");
        assertTrue(runtime.optimizing());
        assertFalse(String.join(" ", runtime.jvmOptions()).contains("AOTCache"));
        assertTrue(runtime.description().contains("another class path"), runtime.description());
    }

    @Test
    void anInterpretedEngineUnderAnOptimizingRuntimeIsReportedOnceAndNotForOtherEngines() throws IOException {
        prepare("/app.jar");
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "auto", "/app.jar");
        assertFalse(runtime.checkEngine("GraalVM CE", true));
        assertTrue(runtime.checkEngine("Interpreted", true));
        assertFalse(runtime.checkEngine("Interpreted", true), "said once, not per worker");
        assertFalse(WorkerRuntime.locate(dir, "off", "/app.jar").checkEngine("Interpreted", false),
                "interpreter-only by choice is not news");
    }

    @Test
    void anAotCacheTheJvmRefusedIsReportedOnce() throws IOException {
        prepare("/app.jar");
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "auto", "/app.jar");
        assertTrue(runtime.checkEngine("GraalVM CE", false));
        assertFalse(runtime.checkEngine("GraalVM CE", false));
        prepare("/elsewhere/app.jar");
        assertFalse(WorkerRuntime.locate(dir, "auto", "/app.jar").checkEngine("GraalVM CE", false),
                "no cache was offered, so none was refused");
    }

    @Test
    void jitWorkersGetCompilerHeadroomOnTopOfTheGuestHeap() {
        assertEquals("512m", WorkerLauncher.workerHeap("512m", false));
        assertEquals((512 + WorkerLauncher.JIT_HEADROOM_MB) + "m", WorkerLauncher.workerHeap("512m", true));
        assertEquals((2048 + WorkerLauncher.JIT_HEADROOM_MB) + "m", WorkerLauncher.workerHeap("2g", true));
    }

    private void prepare(String trainedClassPath) throws IOException {
        Path java = Files.createDirectories(dir.resolve("jdk/bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(Files.createDirectories(dir.resolve("compiler")).resolve("compiler.jar"), "");
        Files.writeString(dir.resolve("worker.aot"), "");
        Files.writeString(dir.resolve("worker.aot.classpath"), trainedClassPath + "\n");
    }
}
