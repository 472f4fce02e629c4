package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.pysandbox.config.LongCallSettings;
import dev.pysandbox.execution.CallPhase;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.supervisor.InMemoryWorker.Startup;

/**
 * The execution core as the server sees it, on in-memory workers: calls are answered, sessions are routed through
 * the registry to the worker holding their context, and a session whose worker is gone is reported lost (the rules
 * RecyclingIT and WorkerCrashIT check end to end, here in milliseconds).
 */
class SandboxTest {
    private static final Duration HANG = Duration.ofSeconds(30);

    private final InMemoryWorkers workers = new InMemoryWorkers(Startup.READY);
    private Sandbox sandbox;

    @AfterEach
    void close() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    /** A sandbox of {@code size} workers that each serve {@code maxCalls} calls, holding at most {@code maxSessions}. */
    private Sandbox sandbox(int size, int maxCalls, int maxSessions) {
        sandbox = new Sandbox(new Sandbox.Settings(size, maxCalls, HANG, Duration.ofSeconds(1), maxSessions, maxSessions,
                maxSessions, Duration.ofMinutes(10)), workers, ToolBroker.OFF).start();
        return sandbox;
    }

    /** A sandbox of one general worker and one JIT worker for long calls, moving calls after 100 ms. */
    private Sandbox sandboxWithJitWorker() throws InterruptedException {
        return sandboxWithJitWorker(ToolBroker.OFF);
    }

    private Sandbox sandboxWithJitWorker(ToolBroker tools) throws InterruptedException {
        sandbox = new Sandbox(new Sandbox.Settings(1, 100, HANG, Duration.ofSeconds(1), 10, 10, 10,
                Duration.ofMinutes(10), new LongCallSettings(1, Duration.ofMillis(100))), workers, tools).start();
        workers.awaitLaunched("jit-worker-1.1");
        return sandbox;
    }

    private ExecutionResult run(String code) throws InterruptedException {
        return sandbox.execute(new ExecutionRequest(code, "", Duration.ofSeconds(5), null, "<string>"));
    }

    private ExecutionResult inSession(String session, String code) throws InterruptedException {
        return sandbox.execute(new ExecutionRequest(code, "", Duration.ofSeconds(5), session, "<string>"), null,
                phase -> { });
    }

    private static void assertLost(ExecutionResult result) {
        assertEquals(Status.SETUP_ERROR, result.status(), result::toString);
        assertTrue(result.errorMessage().contains("was lost because its worker process stopped"), result.errorMessage());
    }

    @Test
    void aCallRunsOnAWorkerAndIsAnswered() throws InterruptedException {
        sandbox(1, 100, 10);
        ExecutionResult result = run("print(1)");
        assertEquals(Status.SUCCESS, result.status());
        assertEquals("worker-1.1 ran print(1)\n", result.stdout());
        assertEquals(null, result.sessionNew(), "no session, no session_new");
        assertTrue(sandbox.ready());
    }

    @Test
    void callsInASessionRunOnItsWorkerInTheSessionsOwnContext() throws InterruptedException {
        sandbox(2, 100, 10);
        ExecutionResult first = inSession("s", "a");
        String worker = first.stdout().substring(0, first.stdout().indexOf(' '));
        assertEquals(worker + " ran a in s#1\n", first.stdout(), "the context is named per session, not per id");
        assertEquals(true, first.sessionNew());
        for (String code : new String[] {"b", "c", "d"}) {
            ExecutionResult next = inSession("s", code);
            assertEquals(worker + " ran " + code + " in s#1\n", next.stdout());
            assertEquals(false, next.sessionNew());
        }
    }

    @Test
    void aCallWhoseWorkerCrashesGetsAnExecutionErrorAndTheNextRunsOnAReplacement() throws InterruptedException {
        sandbox(1, 100, 10);
        assertEquals(Status.SUCCESS, inSession("doomed", "kept = 1").status());
        ExecutionResult crashed = run("crash");
        assertEquals(Status.EXECUTION_ERROR, crashed.status());
        assertTrue(crashed.errorMessage().contains("stopped unexpectedly"), crashed.errorMessage());
        assertEquals("worker-1.2 ran print(2)\n", run("print(2)").stdout());
        assertLost(inSession("doomed", "print(kept)"));
        ExecutionResult reborn = inSession("doomed", "print(kept)");
        assertEquals("worker-1.2 ran print(kept) in doomed#2\n", reborn.stdout(), "the id starts a new session");
        assertEquals(true, reborn.sessionNew());
    }

    @Test
    void aSessionWhoseWorkerAskedToBeReplacedIsReportedLost() throws InterruptedException {
        sandbox(1, 100, 10);
        inSession("before-refusal", "marker = 1");
        assertEquals(Status.SUCCESS, run("recycle").status());
        assertLost(inSession("before-refusal", "print(marker)"));
    }

    @Test
    void aSessionWhoseWorkerServedItsMaxCallsIsReportedLost() throws InterruptedException {
        sandbox(1, 4, 10);
        inSession("counted", "marker = 1"); // call 1 on worker-1.1
        inSession("counted", "print(marker)"); // 2
        run("pass"); // 3
        run("pass"); // 4: the worker retires after this one
        assertLost(inSession("counted", "print(marker)"));
        assertEquals("worker-1.2 ran pass\n", run("pass").stdout());
    }

    @Test
    void aSessionClosedForRoomHasItsContextClosedInItsWorker() throws Exception {
        sandbox(1, 100, 1);
        inSession("a", "x = 1");
        inSession("b", "y = 1");
        Map<String, Object> close = workers.awaitLaunched("worker-1.1").nextCommand("close-session");
        assertEquals("a#1", close.get("session"));
        ExecutionResult result = inSession("a", "print(x)");
        assertEquals(Status.SETUP_ERROR, result.status());
        assertTrue(result.errorMessage().contains("more than 1 sessions were open"), result.errorMessage());
    }

    @Test
    void aFreshCallStillRunningAfterTheMoveDelayStartsAgainOnTheJitWorkerWithTheTimeItHasLeft() throws Exception {
        sandboxWithJitWorker();
        InMemoryWorker general = workers.awaitLaunched("worker-1.1");
        ExecutionResult result = sandbox.execute(new ExecutionRequest("long", "", Duration.ofSeconds(5), null, "<string>"));
        assertTrue(result.stdout().startsWith("jit-worker-1.1 ran long in "), result.stdout());
        long movedLimit = Long.parseLong(result.stdout().replaceAll("\\D+", " ").trim().split(" ")[2]);
        assertTrue(movedLimit <= 4_900 && movedLimit > 1_000, "the time left, not the whole timeout: " + movedLimit);
        assertTrue(result.executionTime() >= 0.1, "counts the time before the move: " + result.executionTime());
        Map<String, Object> execute = general.nextCommand("execute");
        assertEquals(execute.get("id"), general.nextCommand("cancel").get("id"), "the first run is stopped");
        assertEquals("worker-1.1 ran print(1)\n", run("print(1)").stdout(), "and its worker serves the next call");
    }

    @Test
    void aMovedCallThatTimesOutNamesTheCallersTimeout() throws Exception {
        sandboxWithJitWorker();
        ExecutionResult result = sandbox.execute(new ExecutionRequest("long-timeout", "", Duration.ofSeconds(5), null,
                "<string>"));
        assertEquals(Status.TIMEOUT, result.status());
        assertEquals("Execution timed out after 5 seconds.", result.errorMessage());
    }

    @Test
    void aCallInASessionOrWithLittleTimeLeftIsNeverMoved() throws Exception {
        sandboxWithJitWorker();
        assertNeverMoved(new ExecutionRequest("long", "", Duration.ofSeconds(2), "s", "<string>"));
        assertNeverMoved(new ExecutionRequest("long", "", Duration.ofSeconds(1), null, "<string>"));
    }

    @Test
    void aCallThatHasCalledAToolIsNeverMoved() throws Exception {
        // Tools whose execution has called one: a second run would call it again.
        SeenToolCalls used = new SeenToolCalls();
        used.handle(ToolOp.CALL, "stub.echo", "{}", Duration.ofSeconds(1));
        sandboxWithJitWorker(grant -> used);
        assertNeverMoved(new ExecutionRequest("long", "", Duration.ofSeconds(2), null, "<string>", Map.of(), null, null,
                new ToolGrant(true, null, 5)));
        assertTrue(used.askedIfUnused.get() > 0, "asked at the moment of the move");
    }

    /** Runs a "long" call, which the general worker never answers: the supervisor's deadline does, killing it. */
    private void assertNeverMoved(ExecutionRequest request) throws InterruptedException {
        InMemoryWorker jit = workers.awaitLaunched("jit-worker-1.1");
        ExecutionResult result = sandbox.execute(request, null, phase -> { });
        assertEquals(Status.TIMEOUT, result.status(), result::toString);
        assertTrue(jit.noCommandWaiting(), "the JIT worker got nothing: " + request);
    }

    @Test
    void aCancelledCallIsStoppedInItsWorkerWhichThenServesTheNextCall() throws Exception {
        sandbox(1, 100, 10);
        InMemoryWorker worker = workers.awaitLaunched("worker-1.1");
        // The client cancels once the call runs: the thread waiting for the answer is interrupted.
        assertThrows(InterruptedException.class, () -> sandbox.execute(new ExecutionRequest("sleep", "",
                Duration.ofSeconds(5), null, "<string>"), null, phase -> {
                    if (phase == CallPhase.RUNNING) {
                        Thread.currentThread().interrupt();
                    }
                }));
        Map<String, Object> execute = worker.nextCommand("execute");
        Map<String, Object> cancel = worker.nextCommand("cancel");
        assertEquals(execute.get("id"), cancel.get("id"));
        assertEquals("worker-1.1 ran print(1)\n", run("print(1)").stdout(), "the same worker, back in the pool");
    }

    @Test
    void aCallThatFindsNoWorkerReadyInTimeIsToldSoAndTheServerIsNotReady() throws InterruptedException {
        workers.thenStart(Startup.NEVER_READY);
        sandbox = new Sandbox(new Sandbox.Settings(1, 100, Duration.ZERO, Duration.ofSeconds(1), 10, 10, 10,
                Duration.ofMinutes(10)), workers, ToolBroker.OFF).start();
        ExecutionResult result = inSession("s", "print(1)");
        assertEquals(Status.SETUP_ERROR, result.status());
        assertTrue(result.errorMessage().startsWith("No sandbox worker became available within 0 seconds"),
                result.errorMessage());
        assertFalse(sandbox.ready());
    }
}
