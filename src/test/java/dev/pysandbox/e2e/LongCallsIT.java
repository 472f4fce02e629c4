package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Calls that outrun the interpreter get a twin on the JIT worker (worker.jit-workers): the real server, its
 * interpreter-only worker and its JIT worker. The rules of twins (time left, sessions, tool calls, who wins) are
 * SandboxTest's, against in-memory workers; this shows them end to end, where only real workers can show it: which
 * runtime answered, that the caller sees one run, and that the worker whose run lost serves the next call; and
 * that a session that computes moves to the JIT worker with its variables.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LongCallsIT {
    /** Runs for three seconds by the clock, wherever it runs, then says which GraalPy ran it. */
    private static final String BUSY = """
            import sys, time
            print('start')
            t = time.monotonic()
            while time.monotonic() - t < 3:
                pass
            print('.'.join(map(str, sys.implementation.version[:3])))
            """;
    /** Runs for half a second on the JIT worker's GraalPy (25.0), 30 s on the general workers' (25.2). */
    private static final String FASTER_ON_THE_JIT = """
            import sys, time
            print('start')
            t = time.monotonic()
            while time.monotonic() - t < (0.5 if sys.implementation.version[:2] == (25, 0) else 30):
                pass
            print('.'.join(map(str, sys.implementation.version[:3])))
            """;

    private static final String TAG = "pysandbox.it.long-calls=" + ProcessHandle.current().pid();
    private static SandboxServer server;

    /** One interpreter-only worker and the JIT worker, twins after a second, tagged for finding their processes. */
    @BeforeAll
    static void start() throws InterruptedException {
        WorkerRuntimeIT.assumeTheBuildPreparedTheWorkerRuntime();
        server = SandboxServer.start("--workers=1", "--worker.jit-workers=1", "--worker.jit-twin-after-millis=1000",
                "--worker.jvm-options=-D" + TAG, SandboxServer.SHORT_WARM_UP);
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (server.log.stream().noneMatch(line -> line.contains("jit-worker-1.1") && line.contains("is ready"))) {
            assertTrue(System.nanoTime() < deadline, "the JIT worker did not become ready");
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static long twins() {
        return server.log.stream().filter(line -> line.contains("its twin starts on")).count();
    }

    @Test
    @Order(3)
    void aCallStillRunningAfterTheDelayGetsATwinWhichAnswersAsOneRunWhenItFinishesFirst() throws Exception {
        long before = twins();
        Map<String, Object> result = server.execute(Map.of("language", "python", "code", FASTER_ON_THE_JIT, "timeout", 60));
        assertEquals("success", result.get("status"), result::toString);
        assertEquals("start\n" + System.getProperty("graalpy.jit.version") + "\n", result.get("stdout"), "one run's output");
        assertTrue(((Number) result.get("execution_time")).doubleValue() >= 1.5,
                "the time counts the second before the twin: " + result.get("execution_time"));
        assertEquals(before + 1, twins(), "logged");
        assertEquals("1\n", server.python("print(1)").get("stdout"), "the general worker, whose run lost, serves the next call");
    }

    @Test
    @Order(4)
    void aCallThatFinishesFirstWhereItStartedLosesNothingToItsTwin() throws Exception {
        long before = twins();
        Map<String, Object> result = server.execute(Map.of("language", "python", "code", BUSY, "timeout", 60));
        assertEquals("start\n" + System.getProperty("graalpy.version") + "\n", result.get("stdout"), result::toString);
        assertEquals(before + 1, twins(), "it had a twin, which lost: " + server.log);
        Map<String, Object> next = server.execute(Map.of("language", "python", "code", FASTER_ON_THE_JIT, "timeout", 60));
        assertEquals("start\n" + System.getProperty("graalpy.jit.version") + "\n", next.get("stdout"),
                "the JIT worker, whose run lost, takes the next twin: " + next);
    }

    /** First, while each worker is the one the server started. */
    @Test
    @Order(1)
    void theJitWorkerWarmsItselfAndRunsWholeAtNice19SoItTakesOnlyCoresNoCallWants() throws Exception {
        List<ProcessHandle> workers = SandboxServer.workersTagged(TAG);
        // Each one's parent and command line, should another process pass for a worker (a worker's renice child
        // once did, before workersTagged left a worker's children out).
        assertEquals(2, workers.size(), () -> workers.stream().map(p -> p.pid() + " (parent "
                + p.parent().map(ProcessHandle::pid).orElse(-1L) + ", alive " + p.isAlive() + "): "
                + SandboxServer.commandLine(p)).toList().toString() + "\nserver log:\n" + String.join("\n", server.log));
        for (ProcessHandle worker : workers) {
            String command = SandboxServer.commandLine(worker);
            boolean jit = SandboxServer.isJitWorker(worker);
            assertTrue(command.contains("-Dpysandbox.worker.warmUpRuns=" + SandboxServer.SHORT_WARM_UP_RUNS + " "), command);
            assertEquals(jit ? 19 : 0, niceOf(worker), "the JIT worker at nice 19, the general one at 0: " + command);
            if (jit) {
                assertTrue(command.contains("-Dpolyglot.engine.CompilerThreads=1"), "one compiler thread: " + command);
            }
        }
    }

    /** A process's nice value: its main thread's, which every thread it starts inherits. */
    private static int niceOf(ProcessHandle process) throws java.io.IOException {
        String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(process.pid()), "stat"));
        // Fields after the command, which is in parentheses and may hold spaces: state is field 3, nice field 19.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[19 - 3]);
    }

    /** Before any call has had a twin. */
    @Test
    @Order(2)
    void aSessionCallStaysOnTheWorkerThatHoldsItsState() {
        Map<String, Object> result = server.execute(Map.of("language", "python", "code", BUSY, "timeout", 60,
                "session_id", "kept"));
        assertEquals("start\n" + System.getProperty("graalpy.version") + "\n", result.get("stdout"), result::toString);
        assertEquals(0, twins(), "no twin: " + server.log);
    }

    /** Last: it leaves a session on the JIT worker. */
    @Test
    @Order(5)
    void aSessionWhoseCallsComputeMovesToTheJitWorkerWithItsVariables() {
        Map<String, Object> first = session("x = 40");
        assertEquals("success", first.get("status"), first::toString);
        String computing = """
                import time
                t = time.monotonic()
                while time.monotonic() - t < 1.5:
                    pass
                x += 1
                print(x)
                """;
        for (int x = 41; x <= 42; x++) {
            Map<String, Object> computed = session(computing);
            assertEquals(x + "\n", computed.get("stdout"), "ran past the one-second delay, on the general worker: "
                    + computed);
        }
        Map<String, Object> moved = session("import sys\nx += 1\nprint(x, '.'.join(map(str, sys.implementation.version[:3])))");
        assertEquals("43 " + System.getProperty("graalpy.jit.version") + "\n", moved.get("stdout"),
                "its variables, on the JIT worker's GraalPy: " + moved);
        assertEquals(3, ((Number) moved.get("session_rebuilt")).intValue(), "its three calls ran again there: " + moved);
        assertTrue(server.log.stream().anyMatch(line -> line.contains("session computing computes: moving it")),
                "logged: " + server.log);
    }

    private static Map<String, Object> session(String code) {
        return server.execute(Map.of("language", "python", "code", code, "timeout", 60, "session_id", "computing"));
    }

    /** JavaScript runs on the JIT worker's GraalJS (25.0) too: a long JavaScript call gets its twin there. */
    @Test
    @Order(6)
    void aLongJavaScriptCallGetsATwinAndTheJitWorkerServesOnAfterIt() throws Exception {
        long before = twins();
        Map<String, Object> result = server.execute(Map.of("language", "javascript", "timeout", 60, "code",
                "console.log('start'); const t = Date.now(); while (Date.now() - t < 3000) {} console.log('done');"));
        assertEquals("success", result.get("status"), result::toString);
        assertEquals("start\ndone\n", result.get("stdout"), "one run's output");
        assertEquals(before + 1, twins(), "it had a twin: " + server.log);
        Map<String, Object> next = server.execute(Map.of("language", "python", "code", FASTER_ON_THE_JIT, "timeout", 60));
        assertEquals("start\n" + System.getProperty("graalpy.jit.version") + "\n", next.get("stdout"),
                "the JIT worker ran the JavaScript twin and serves on: " + next);
    }
}
