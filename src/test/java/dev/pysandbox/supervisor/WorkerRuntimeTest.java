package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import dev.pysandbox.config.LongCallSettings;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.files.FileLimits;
import dev.pysandbox.packages.InstallerJvm;
import dev.pysandbox.worker.ImportPolicy;
import dev.pysandbox.worker.WorkerSettings;
import org.junit.jupiter.api.io.TempDir;

/** Which Java and options a worker gets, for each state of the prepared worker-runtime folder. */
class WorkerRuntimeTest {
    @TempDir
    Path dir;

    @Test
    void jitOffUsesThePreparedJdkInterpreterOnlyWithItsOwnAotCache() throws IOException {
        prepare(true);
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.INTERPRETER, "/app.jar");
        assertEquals(WorkerKind.INTERPRETER, runtime.kind());
        assertFalse(runtime.fallback(), "interpreter-only by choice is not a fallback");
        assertEquals(dir.resolve("jdk/bin/java"), runtime.java());
        assertEquals(java.util.List.of("-Dtruffle.UseFallbackRuntime=true",
                "-XX:AOTCache=" + dir.resolve("worker-interpreter.aot")), runtime.jvmOptions());
        assertTrue(runtime.description().contains("worker.jit=off"));
    }

    @Test
    void jitOffWithoutAPreparedRuntimeUsesTheServersOwnJavaAndWarns() {
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.INTERPRETER, "/app.jar");
        assertEquals(WorkerKind.INTERPRETER, runtime.kind());
        assertTrue(runtime.fallback());
        assertEquals(Path.of(System.getProperty("java.home"), "bin", "java"), runtime.java());
        assertEquals(java.util.List.of(), runtime.jvmOptions());
    }

    @Test
    void theInstallerRunsOnTheInterpreterOnlyWorkersJavaWithTheirAotCache() throws IOException {
        prepare(true);
        InstallerJvm installer = WorkerRuntime.forInstaller(dir, "/app.jar");
        assertEquals(dir.resolve("jdk/bin/java"), installer.java());
        assertEquals(java.util.List.of("-Dtruffle.UseFallbackRuntime=true",
                "-XX:AOTCache=" + dir.resolve("worker-interpreter.aot")), installer.runtimeOptions());
        assertEquals("/app.jar", installer.classPath(), "the class path the cache was checked against");
    }

    @Test
    void withoutAPreparedRuntimeTheInstallerRunsOnTheServersOwnJavaWithoutACache() {
        InstallerJvm installer = WorkerRuntime.forInstaller(dir, "/app.jar");
        assertEquals(Path.of(System.getProperty("java.home"), "bin", "java"), installer.java());
        assertEquals(java.util.List.of(), installer.runtimeOptions());
        assertEquals("/app.jar", installer.classPath());
    }

    @Test
    void eachKindOfWorkerTakesOnlyItsOwnAotCache() throws IOException {
        prepare(true);
        Files.delete(dir.resolve("worker-interpreter.aot"));
        assertFalse(String.join(" ", WorkerRuntime.locate(dir, WorkerKind.INTERPRETER, "/app.jar").jvmOptions()).contains("AOTCache"),
                "the JIT workers' cache was trained with other options");
        assertTrue(String.join(" ", WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar").jvmOptions()).contains("worker-jit.aot"));
    }

    @Test
    void jitWorkersRunOnTheJarsOfTheirOwnRuntimeAndNotOnTheServersClassPath() throws IOException {
        prepare(true);
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar");
        assertEquals(jitClassPath(), runtime.classPath());
        assertEquals("/app.jar", WorkerRuntime.locate(dir, WorkerKind.INTERPRETER, "/app.jar").classPath());
    }

    @Test
    void jitWithoutItsOwnRuntimeFallsBackToTheInterpreterOnTheServersClassPath() throws IOException {
        prepare(true);
        for (Path jar : WorkerRuntime.jars(dir.resolve("jit-lib"))) {
            Files.delete(jar);
        }
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar");
        assertEquals(WorkerKind.INTERPRETER, runtime.kind());
        assertTrue(runtime.fallback());
        assertEquals("/app.jar", runtime.classPath());
    }

    @Test
    void missingRuntimeFallsBackToTheInterpreterAndSaysHowToGetTheJit() {
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar");
        assertEquals(WorkerKind.INTERPRETER, runtime.kind());
        assertTrue(runtime.fallback());
        assertTrue(runtime.description().contains("JDK 25"), runtime.description());
    }

    @Test
    void preparedRuntimeBringsTheCompilerInOnTheModulePathWithTheAotCache() throws IOException {
        prepare(true);
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar");
        assertEquals(WorkerKind.JIT, runtime.kind());
        assertEquals(dir.resolve("jdk/bin/java"), runtime.java());
        String options = String.join(" ", runtime.jvmOptions());
        assertTrue(options.contains("-XX:+EnableJVMCI"), options);
        assertTrue(options.contains("-Dpolyglot.engine.CompilerThreads=1"), "one compiler thread: " + options);
        assertTrue(options.contains("--module-path " + dir.resolve("compiler/compiler.jar").toAbsolutePath()), options);
        assertTrue(options.contains("--add-modules jdk.graal.compiler"), options);
        assertFalse(options.contains("--upgrade-module-path"), "that option switches the AOT cache off");
        assertTrue(options.contains("-XX:AOTCache=" + dir.resolve("worker-jit.aot")), options);
    }

    @Test
    void aotCacheTrainedOnAnotherClassPathIsLeftOut() throws IOException {
        prepare(false);
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar");
        assertEquals(WorkerKind.JIT, runtime.kind());
        assertFalse(String.join(" ", runtime.jvmOptions()).contains("AOTCache"));
        assertTrue(runtime.description().contains("another class path"), runtime.description());
    }

    @Test
    void anInterpretedEngineUnderAnOptimizingRuntimeIsReportedOnceAndNotForOtherEngines() throws IOException {
        prepare(true);
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar");
        assertFalse(runtime.checkEngine("GraalVM CE", true));
        assertTrue(runtime.checkEngine("Interpreted", true));
        assertFalse(runtime.checkEngine("Interpreted", true), "said once, not per worker");
        assertFalse(WorkerRuntime.locate(dir, WorkerKind.INTERPRETER, "/app.jar").checkEngine("Interpreted", true),
                "interpreter-only by choice is not news");
    }

    @Test
    void anAotCacheTheJvmRefusedIsReportedOnce() throws IOException {
        prepare(true);
        WorkerRuntime runtime = WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar");
        assertTrue(runtime.checkEngine("GraalVM CE", false));
        assertFalse(runtime.checkEngine("GraalVM CE", false));
        prepare(false);
        assertFalse(WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar").checkEngine("GraalVM CE", false),
                "no cache was offered, so none was refused");
    }

    @Test
    void aServerFolderUnpackedElsewhereKeepsItsAotCaches() {
        // Trained in a checkout's target/, used in an unpacked release's lib/: the jars moved with their folder.
        Path built = dir.resolve("checkout/target/worker-runtime");
        Path unpacked = dir.resolve("release/lib/worker-runtime");
        String trainedOn = dir.resolve("checkout/target/python-sandbox-mcp.jar").toString();
        String runsOn = dir.resolve("release/lib/python-sandbox-mcp.jar").toString();
        assertEquals("python-sandbox-mcp.jar", WorkerRuntime.portable(built, trainedOn));
        assertEquals(WorkerRuntime.portable(built, trainedOn), WorkerRuntime.portable(unpacked, runsOn));
        assertEquals("worker-runtime/jit-lib/a.jar:/elsewhere/b.jar",
                WorkerRuntime.portable(built, built.resolve("jit-lib/a.jar") + ":/elsewhere/b.jar"));
    }

    @Test
    void jitWorkersGetCompilerHeadroomOnTopOfTheGuestHeap() {
        assertEquals("512m", WorkerKind.INTERPRETER.heap("512m"));
        assertEquals((512 + ServerConfig.JIT_HEADROOM_MB) + "m", WorkerKind.JIT.heap("512m"));
        assertEquals((2048 + ServerConfig.JIT_HEADROOM_MB) + "m", WorkerKind.JIT.heap("2g"));
    }

    @Test
    void theJitCacheTrainsWithoutWarmingUp() throws IOException {
        prepare(true);
        WorkerLauncher launcher = launcher(LongCallSettings.NONE);
        assertTrue(launcher.trainingCommand(WorkerRuntime.locate(dir, WorkerKind.INTERPRETER, "/app.jar"))
                .contains("-Dpysandbox.worker.warmUpRuns=200"), "interpreter-only workers warm themselves as configured");
        List<String> jit = launcher.trainingCommand(WorkerRuntime.locate(dir, WorkerKind.JIT, "/app.jar"));
        assertTrue(jit.contains("-Dpysandbox.worker.warmUpRuns=0"), jit::toString);
        assertTrue(String.join(" ", jit).contains("-XX:+EnableJVMCI"), "and otherwise on the JIT runtime: " + jit);
    }

    @Test
    void longCallWorkersRunWholeAtNice19AndWarmThemselvesWhileGeneralOnesKeepTheirPriority() throws IOException {
        WorkerLauncher launcher = launcher(new LongCallSettings(1, java.time.Duration.ofSeconds(2), true));
        List<String> longCalls = launcher.command("w", WorkerRole.LONG_CALLS);
        assertTrue(longCalls.get(0).endsWith("/nice") && longCalls.subList(1, 3).equals(List.of("-n", "19")),
                "nice -n 19 before the java command, so that every thread the JVM makes inherits it: " + longCalls);
        assertTrue(longCalls.contains("-Dpysandbox.worker.warmUpRuns=200"), longCalls::toString);
        List<String> general = launcher.command("w", WorkerRole.GENERAL);
        assertTrue(general.get(0).endsWith("/java"), general::toString);
        assertTrue(general.contains("-Dpysandbox.worker.warmUpRuns=200"), general::toString);
    }

    private WorkerLauncher launcher(LongCallSettings longCalls) throws IOException {
        WorkerSettings settings = new WorkerSettings(1024, 4096, 2, 100, ImportPolicy.standard(), false, List.of(), "",
                FileLimits.DEFAULT, List.of(), 200);
        return new WorkerLauncher("256m", dir.resolve("cache"), List.of(), settings, "off", longCalls, "off", List.of());
    }

    /** A prepared folder whose AOT caches were trained on the class paths used here, or on others. */
    private void prepare(boolean trainedOnTheseClassPaths) throws IOException {
        Path java = Files.createDirectories(dir.resolve("jdk/bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(Files.createDirectories(dir.resolve("compiler")).resolve("compiler.jar"), "");
        Path jitLib = Files.createDirectories(dir.resolve("jit-lib"));
        Files.writeString(jitLib.resolve("python-language-25.0.3.jar"), "");
        Files.writeString(jitLib.resolve("polyglot-25.0.3.jar"), "");
        String prefix = trainedOnTheseClassPaths ? "" : "/elsewhere";
        train("worker-interpreter.aot", prefix + "/app.jar");
        train("worker-jit.aot", prefix + jitClassPath());
    }

    private void train(String cache, String classPath) throws IOException {
        Files.writeString(dir.resolve(cache), "");
        Files.writeString(dir.resolve(cache + ".classpath"), WorkerRuntime.portable(dir, classPath) + "\n");
    }

    private String jitClassPath() {
        return dir.resolve("jit-lib/polyglot-25.0.3.jar") + ":" + dir.resolve("jit-lib/python-language-25.0.3.jar");
    }
}
