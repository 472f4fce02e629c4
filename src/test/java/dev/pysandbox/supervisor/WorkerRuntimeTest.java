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
    void jitOffUsesThePreparedJdkInterpreterOnlyWithItsOwnAotCache() throws IOException {
        prepare("/app.jar");
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "off", "/app.jar");
        assertFalse(runtime.optimizing());
        assertFalse(runtime.fallback(), "interpreter-only by choice is not a fallback");
        assertEquals(dir.resolve("jdk/bin/java"), runtime.java());
        assertEquals(java.util.List.of("-Dtruffle.UseFallbackRuntime=true",
                "-XX:AOTCache=" + dir.resolve("worker-interpreter.aot")), runtime.jvmOptions());
        assertTrue(runtime.description().contains("worker.jit=off"));
    }

    @Test
    void jitOffWithoutAPreparedRuntimeUsesTheServersOwnJavaAndWarns() {
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "off", "/app.jar");
        assertFalse(runtime.optimizing());
        assertTrue(runtime.fallback());
        assertEquals(Path.of(System.getProperty("java.home"), "bin", "java"), runtime.java());
        assertEquals(java.util.List.of(), runtime.jvmOptions());
    }

    @Test
    void eachKindOfWorkerTakesOnlyItsOwnAotCache() throws IOException {
        prepare("/app.jar");
        Files.delete(dir.resolve("worker-interpreter.aot"));
        assertFalse(String.join(" ", WorkerRuntime.locate(dir, "off", "/app.jar").jvmOptions()).contains("AOTCache"),
                "the JIT workers' cache was trained with other options");
        assertTrue(String.join(" ", WorkerRuntime.locate(dir, "auto", "/app.jar").jvmOptions()).contains("worker.aot"));
    }

    @Test
    void missingRuntimeFallsBackToTheInterpreterAndSaysHowToGetTheJit() {
        WorkerRuntime runtime = WorkerRuntime.locate(dir, "auto", "/app.jar");
        assertFalse(runtime.optimizing());
        assertTrue(runtime.fallback());
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
        assertFalse(WorkerRuntime.locate(dir, "off", "/app.jar").checkEngine("Interpreted", true),
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
        for (String cache : new String[] {"worker.aot", "worker-interpreter.aot"}) {
            Files.writeString(dir.resolve(cache), "");
            Files.writeString(dir.resolve(cache + ".classpath"), trainedClassPath + "\n");
        }
    }
}
