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
 * Calls that outrun the interpreter move to the JIT worker (worker.jit-workers, on by default): the real server,
 * its interpreter-only worker and its JIT worker. The rules of moving (time left, sessions, tool calls) are
 * SandboxTest's, against in-memory workers; this shows the move end to end, where only real workers can show it:
 * which runtime answered, and that the caller sees one run.
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

    private static final String TAG = "pysandbox.it.long-calls=" + ProcessHandle.current().pid();
    private static SandboxServer server;

    /** One interpreter-only worker and the JIT worker, moving after a second, tagged for finding their processes. */
    @BeforeAll
    static void start() throws InterruptedException {
        WorkerRuntimeIT.assumeTheBuildPreparedTheWorkerRuntime();
        server = SandboxServer.start("--workers=1", "--worker.jit-workers=1", "--worker.jit-move-after-millis=1000",
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

    private static long moves() {
        return server.log.stream().filter(line -> line.contains("moving it to")).count();
    }

    @Test
    @Order(3)
    void aCallStillRunningAfterTheMoveDelayAnswersFromTheJitWorkerAsOneRun() {
        Map<String, Object> result = server.execute(Map.of("language", "python", "code", BUSY, "timeout", 60));
        assertEquals("success", result.get("status"), result::toString);
        // The first run printed "start" too; its output went with its context.
        assertEquals("start\n" + System.getProperty("graalpy.jit.version") + "\n", result.get("stdout"));
        assertTrue(((Number) result.get("execution_time")).doubleValue() >= 4.0,
                "the time counts the second before the move: " + result.get("execution_time"));
        assertTrue(server.log.stream().anyMatch(line -> line.contains("moving it to jit-worker-1.1")), "logged");
        assertEquals("1\n", server.python("print(1)").get("stdout"), "the general worker serves the next call");
    }

    /** First, while each worker is the one the server started. */
    @Test
    @Order(1)
    void onlyTheGeneralWorkersWarmThemselvesSoTheJitWorkerTakesNoCoreWhileItWaits() {
        List<String> commands = SandboxServer.workersTagged(TAG).stream().map(SandboxServer::commandLine).toList();
        assertEquals(2, commands.size(), commands::toString);
        for (String command : commands) {
            boolean jit = command.contains("-Dpysandbox.worker.name=jit-worker-");
            assertTrue(command.contains("-Dpysandbox.worker.warmUpRuns=" + (jit ? "0" : SandboxServer.SHORT_WARM_UP_RUNS) + " "), command);
        }
    }

    /** Before any call has moved. */
    @Test
    @Order(2)
    void aSessionCallStaysOnTheWorkerThatHoldsItsState() {
        Map<String, Object> result = server.execute(Map.of("language", "python", "code", BUSY, "timeout", 60,
                "session_id", "kept"));
        assertEquals("start\n" + System.getProperty("graalpy.version") + "\n", result.get("stdout"), result::toString);
        assertEquals(0, moves(), "nothing moved: " + server.log);
    }
}
