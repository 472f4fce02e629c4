package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

import dev.pysandbox.config.LongCallSettings;
import dev.pysandbox.config.SessionSettings;
import dev.pysandbox.execution.CallPhase;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.SessionEnding;
import dev.pysandbox.execution.SessionReport;
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
        sandbox = new Sandbox(new Sandbox.Settings(size, maxCalls, HANG, Duration.ofSeconds(1),
                new SessionSettings(maxSessions, maxSessions, maxSessions, Duration.ofMinutes(10))), workers, ToolBroker.OFF).start();
        return sandbox;
    }

    /** A sandbox of one general worker and one JIT worker for long calls, starting twins after 100 ms. */
    private Sandbox sandboxWithJitWorker() throws InterruptedException {
        return sandboxWithJitWorker(ToolBroker.OFF);
    }

    private Sandbox sandboxWithJitWorker(ToolBroker tools) throws InterruptedException {
        return sandboxWithJitWorker(tools, Duration.ofMillis(100));
    }

    private Sandbox sandboxWithJitWorker(ToolBroker tools, Duration twinAfter) throws InterruptedException {
        sandbox = new Sandbox(new Sandbox.Settings(1, 100, HANG, Duration.ofSeconds(1),
                new SessionSettings(10, 10, 10, Duration.ofMinutes(10)), new LongCallSettings(1, twinAfter, false)),
                workers, tools).start();
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
    void aSessionKeepsTheLanguageOfItsFirstCallAndRefusesAnotherWithoutTouchingIt() throws InterruptedException {
        sandbox(1, 100, 10);
        ExecutionResult first = inSession("s", "a");
        ExecutionResult other = sandbox.execute(new ExecutionRequest(Language.JAVASCRIPT, "b", "", Duration.ofSeconds(5),
                "s", "<string>", Map.of(), null, null, null), null, phase -> { });
        assertEquals(Status.SETUP_ERROR, other.status(), other::toString);
        assertTrue(other.errorMessage().startsWith("This session runs Python"), other.errorMessage());
        ExecutionResult after = inSession("s", "c");
        assertEquals(first.stdout().replace("ran a", "ran c"), after.stdout(), "the session is where it was");
        assertEquals(Status.SUCCESS, sandbox.execute(new ExecutionRequest(Language.JAVASCRIPT, "d", "",
                Duration.ofSeconds(5), "js", "<string>", Map.of(), null, null, null), null, phase -> { }).status(),
                "another id opens a JavaScript session");
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
        ExecutionResult crashed = run("crash");
        assertEquals(Status.EXECUTION_ERROR, crashed.status());
        assertTrue(crashed.errorMessage().contains("stopped unexpectedly"), crashed.errorMessage());
        assertEquals("worker-1.2 ran print(2)\n", run("print(2)").stdout());
    }

    @Test
    void aSessionWhoseWorkerCrashedInAnotherCallIsRebuiltOnTheReplacementByRunningItsCallsAgain() throws Exception {
        sandbox(1, 100, 10);
        inSession("kept", "kept = 1");
        inSession("kept", "kept += 1");
        assertEquals(Status.EXECUTION_ERROR, run("crash").status());
        ExecutionResult after = inSession("kept", "print(kept)");
        assertEquals("worker-1.2 ran print(kept) in kept#1\n", after.stdout(), "the same session, on the replacement");
        assertEquals(2, after.sessionRebuilt(), "its two calls were run again first");
        assertEquals(false, after.sessionNew());
        InMemoryWorker replacement = workers.awaitLaunched("worker-1.2");
        assertEquals("kept = 1", replacement.nextCommand("execute").get("code"));
        assertEquals("kept += 1", replacement.nextCommand("execute").get("code"));
        assertEquals("print(kept)", replacement.nextCommand("execute").get("code"));
        assertNull(inSession("kept", "print(kept)").sessionRebuilt(), "rebuilt once");
    }

    @Test
    void aSessionWhoseWorkerAskedToBeReplacedAfterAnotherCallIsRebuilt() throws InterruptedException {
        sandbox(1, 100, 10);
        inSession("before-refusal", "marker = 1");
        assertEquals(Status.SUCCESS, run("recycle").status());
        ExecutionResult after = inSession("before-refusal", "print(marker)");
        assertEquals(Status.SUCCESS, after.status(), after::toString);
        assertEquals(1, after.sessionRebuilt());
    }

    @Test
    void aSessionWhoseWorkerServedItsMaxCallsIsRebuilt() throws InterruptedException {
        sandbox(1, 4, 10);
        inSession("counted", "marker = 1"); // call 1 on worker-1.1
        inSession("counted", "print(marker)"); // 2
        run("pass"); // 3
        run("pass"); // 4: the worker retires after this one
        ExecutionResult after = inSession("counted", "print(marker)");
        assertEquals("worker-1.2 ran print(marker) in counted#1\n", after.stdout());
        assertEquals(2, after.sessionRebuilt());
    }

    @Test
    void statisticsCountEachReplacementByItsCauseAndEachSessionByHowItEnded() throws Exception {
        sandbox(1, 3, 1);
        assertEquals(Status.EXECUTION_ERROR, run("crash").status()); // worker-1.1 exits
        assertEquals(Status.EXECUTION_ERROR, run("oom").status()); // worker-1.2 runs out of memory
        run("pass");
        inSession("first", "a = 1");
        inSession("second", "b = 1"); // the third call of worker-1.3, which retires; "first" is evicted for room
        SandboxStatistics stats = awaitStatistics(s -> s.workersEnded().values().stream().mapToLong(n -> n).sum() == 3);
        assertEquals(1L, stats.workersEnded().get(WorkerEndCause.EXITED));
        assertEquals(1L, stats.workersEnded().get(WorkerEndCause.OUT_OF_MEMORY));
        assertEquals(1L, stats.workersEnded().get(WorkerEndCause.MAX_CALLS));
        assertEquals(0L, stats.workersEnded().get(WorkerEndCause.MISSED_TIMEOUT), "every cause is listed, 0 for none");
        assertEquals(1L, stats.sessionsEnded().get(SessionEnding.EVICTED));
        assertEquals(1, stats.sessionsOpen());
        assertEquals(0, stats.callsWaiting());
        stats = awaitStatistics(s -> s.workers().get(WorkerState.IDLE) == 1);
        assertEquals(Map.of(WorkerState.STARTING, 0, WorkerState.IDLE, 1, WorkerState.BUSY, 0), stats.workers());
    }

    @Test
    void aCallWaitingForABusyWorkerIsCountedWhileItWaits() throws Exception {
        sandbox(1, 100, 10);
        run("print(1)");
        Thread sleeper = Thread.ofVirtual().start(() -> { // cancelled at its one-second timeout
            try {
                sandbox.execute(new ExecutionRequest("sleep", "", Duration.ofSeconds(1), null, "<string>"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        awaitStatistics(s -> s.workers().get(WorkerState.BUSY) == 1);
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                run("print(2)");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertEquals(1, awaitStatistics(s -> s.callsWaiting() == 1).callsWaiting());
        sleeper.join();
        waiter.join();
        assertEquals(0, sandbox.statistics().callsWaiting());
    }

    /** The sandbox's statistics once {@code done} holds of them (workers end and are counted in the background). */
    private SandboxStatistics awaitStatistics(java.util.function.Predicate<SandboxStatistics> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        SandboxStatistics stats = sandbox.statistics();
        while (!done.test(stats) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            stats = sandbox.statistics();
        }
        assertTrue(done.test(stats), stats.toString());
        return stats;
    }

    @Test
    void aSessionWaitingToBeRebuiltKeepsItsCallsWhenNoWorkerBecomesFreeInTime() throws Exception {
        workers.thenStart(Startup.READY, Startup.NEVER_READY);
        sandbox = new Sandbox(new Sandbox.Settings(1, 100, Duration.ofSeconds(1), Duration.ofSeconds(1),
                new SessionSettings(10, 10, 10, Duration.ofMinutes(10))), workers, ToolBroker.OFF).start();
        inSession("patient", "x = 1");
        run("crash"); // its replacement never becomes ready
        ExecutionResult waited = inSession("patient", "print(x)");
        assertTrue(waited.errorMessage().startsWith("No sandbox worker became available"), waited::toString);
        assertEquals(SessionReport.State.REBUILDING, sandbox.inspect("patient", "patient").state(),
                "still there, to be rebuilt when a worker is");
    }

    @Test
    void aSessionWhoseOwnCallCostItsWorkerEndsAndItsNextCallIsToldWhy() throws InterruptedException {
        sandbox(1, 100, 10);
        inSession("greedy", "data = 1");
        ExecutionResult bomb = inSession("greedy", "oom");
        assertEquals(Status.EXECUTION_ERROR, bomb.status());
        assertEquals(RunReport.MEMORY_LIMIT_MESSAGE, bomb.errorMessage());
        ExecutionResult told = inSession("greedy", "print(data)");
        assertEquals(Status.SETUP_ERROR, told.status());
        assertEquals(SessionEnding.LOST_TO_ITS_OWN_CALL, told.sessionEnded());
        assertTrue(told.errorMessage().contains("ran out of memory (worker.heap) in this session's own call"),
                told.errorMessage());
        ExecutionResult reborn = inSession("greedy", "print(data)");
        assertEquals("worker-1.2 ran print(data) in greedy#2\n", reborn.stdout(), "the id starts a new session");
        assertEquals(true, reborn.sessionNew());
    }

    @Test
    void attackACallThatCostsItsWorkerInOneSessionLeavesTheOtherSessionsOnItRebuilt() throws InterruptedException {
        sandbox(1, 100, 10);
        inSession("victim", "x = 1");
        inSession("attacker", "y = 1");
        assertEquals(Status.EXECUTION_ERROR, inSession("attacker", "crash").status());
        ExecutionResult victim = inSession("victim", "print(x)");
        assertEquals(Status.SUCCESS, victim.status(), victim::toString);
        assertEquals(1, victim.sessionRebuilt());
        assertEquals(SessionEnding.LOST_TO_ITS_OWN_CALL, inSession("attacker", "print(y)").sessionEnded());
    }

    @Test
    void aSessionWhoseCallsEndDifferentlyWhenRunAgainEndsAsNotRebuilt() throws InterruptedException {
        sandbox(1, 100, 10);
        inSession("moody", "fail-on worker-1.2");
        run("crash");
        ExecutionResult after = inSession("moody", "print(1)");
        assertEquals(Status.SETUP_ERROR, after.status());
        assertEquals(SessionEnding.NOT_REBUILT, after.sessionEnded());
        assertTrue(after.errorMessage().contains("its call 1 of 1 ended with execution_error when run again, where it"
                + " had ended with success"), after.errorMessage());
        assertEquals(true, inSession("moody", "print(1)").sessionNew(), "the id is free again");
    }

    @Test
    void aSessionStoppedAtItsTimeoutEndsWithItsWorkerInsteadOfBeingRebuiltWrong() throws InterruptedException {
        sandbox(1, 100, 10);
        inSession("stopped", "timeout"); // stopped cleanly: the session is kept, but its state is wherever the stop left it
        run("crash");
        ExecutionResult after = inSession("stopped", "print(1)");
        assertEquals(SessionEnding.NOT_REBUILT, after.sessionEnded());
        assertTrue(after.errorMessage().contains("a call was stopped at its timeout"), after.errorMessage());
    }

    @Test
    void aCallWithoutASessionTakesAnIdleWorkerHoldingNoSessions() throws InterruptedException {
        sandbox(2, 100, 10);
        workers.awaitLaunched("worker-2.1"); // starts once the first is ready
        ExecutionResult first = inSession("s", "a");
        String sessionWorker = first.stdout().substring(0, first.stdout().indexOf(' '));
        for (int i = 0; i < 100 && run("b").stdout().startsWith(sessionWorker + " "); i++) {
            Thread.sleep(10); // the second worker is not ready yet: the one holding the session is the only one
        }
        for (int i = 0; i < 4; i++) {
            ExecutionResult fresh = run("b");
            assertFalse(fresh.stdout().startsWith(sessionWorker + " "), fresh.stdout());
        }
        ExecutionResult second = inSession("t", "c");
        assertTrue(second.stdout().startsWith(sessionWorker + " "), "sessions pack onto one worker: " + second.stdout());
    }

    @Test
    void inspectingASessionAsksItsWorkerAndRunsNoneOfItsCode() throws Exception {
        sandbox(1, 100, 10);
        inSession("s", "x = 1");
        inSession("s", "x += 1");
        SessionReport report = sandbox.inspect("s", "shown");
        assertEquals(SessionReport.State.LIVE, report.state());
        assertEquals("shown", report.sessionId());
        assertEquals(2, report.calls());
        assertEquals(true, report.rebuildable());
        assertEquals("in_s#1", report.variables().get(0).get("name"), "the worker described the session's context");
        assertEquals(1000, report.memory().get("worker_heap_used_bytes"));
        InMemoryWorker worker = workers.awaitLaunched("worker-1.1");
        worker.nextCommand("execute");
        worker.nextCommand("execute");
        assertEquals("inspect", worker.nextCommand().get("type"), "no code ran for the inspection");
        assertEquals(2, sandbox.inspect("s", "s").calls(), "looking is no call");
    }

    @Test
    void inspectingAnEndedSessionSaysWhyAndItsNextCallIsStillTold() throws Exception {
        sandbox(1, 100, 1);
        inSession("a", "x = 1");
        inSession("b", "y = 1"); // closes a: one session per worker
        SessionReport report = sandbox.inspect("a", "a");
        assertEquals(SessionReport.State.ENDED, report.state());
        assertEquals(SessionEnding.EVICTED, report.ended());
        assertEquals(SessionEnding.EVICTED, inSession("a", "print(x)").sessionEnded());
        assertEquals(SessionReport.State.UNKNOWN, sandbox.inspect("never", "never").state());
    }

    @Test
    void inspectingASessionWhoseWorkerWasLostToAnotherCallSaysItWillBeRebuilt() throws Exception {
        sandbox(1, 100, 10);
        inSession("s", "x = 1");
        run("crash");
        assertEquals(SessionReport.State.REBUILDING, sandbox.inspect("s", "s").state());
        assertEquals(1, inSession("s", "print(x)").sessionRebuilt());
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
    void aFreshCallStillRunningAfterTheDelayGetsATwinOnTheJitWorkerWithTheTimeItHasLeftAndTheFirstToFinishAnswers()
            throws Exception {
        sandboxWithJitWorker();
        InMemoryWorker general = workers.awaitLaunched("worker-1.1");
        ExecutionResult result = sandbox.execute(new ExecutionRequest("long", "", Duration.ofSeconds(5), null, "<string>"));
        assertTrue(result.stdout().startsWith("jit-worker-1.1 ran long in "), result.stdout());
        long twinLimit = Long.parseLong(result.stdout().replaceAll("\\D+", " ").trim().split(" ")[2]);
        assertTrue(twinLimit <= 4_900 && twinLimit > 1_000, "the time left, not the whole timeout: " + twinLimit);
        assertTrue(result.executionTime() >= 0.1, "counts the time before the twin: " + result.executionTime());
        assertStartedThenCancelled(general, "the first run, which lost, is stopped");
        assertEquals("worker-1.1 ran print(1)\n", run("print(1)").stdout(), "and its worker serves the next call");
    }

    @Test
    void aTextWhoseCallRanPastTheDelayBeforeGetsItsTwinAtOnce() throws Exception {
        sandboxWithJitWorker(ToolBroker.OFF, Duration.ofSeconds(2));
        long first = twinLimitMillis(run("long"));
        assertTrue(first <= 3_100, "the first call's twin started after the delay, with the 3 s it left: " + first);
        long again = twinLimitMillis(run("long"));
        assertTrue(again > 4_000, "the same text's twin starts at once, with the whole timeout: " + again);
    }

    /** The time limit a twin of {@code long} was given, which its answer names. */
    private static long twinLimitMillis(ExecutionResult result) {
        assertTrue(result.stdout().startsWith("jit-worker-1.1 ran long in "), result.stdout());
        return Long.parseLong(result.stdout().replaceAll("\\D+", " ").trim().split(" ")[2]);
    }

    @Test
    void aCallThatFinishesFirstWhereItStartedAnswersAndItsTwinIsCancelled() throws Exception {
        sandboxWithJitWorker();
        InMemoryWorker jit = workers.awaitLaunched("jit-worker-1.1");
        ExecutionResult result = run("race ok:600 wait");
        assertEquals("worker-1.1 finished\n", result.stdout(), "nothing the first run did is lost");
        assertStartedThenCancelled(jit, "the twin is stopped");
        assertTrue(run("long").stdout().startsWith("jit-worker-1.1 ran long"), "and the JIT worker takes the next twin");
    }

    @Test
    void aTwinThatFailsWithdrawsAndTheFirstRunAnswers() throws Exception {
        // The twin runs on another GraalPy, which lacks modules the first run may use (pyexpat).
        sandboxWithJitWorker();
        InMemoryWorker jit = workers.awaitLaunched("jit-worker-1.1");
        ExecutionResult result = run("race ok:600 fail");
        assertEquals(Status.SUCCESS, result.status(), result::toString);
        assertEquals("worker-1.1 finished\n", result.stdout());
        jit.nextCommand("execute");
        assertTrue(jit.noCommandWaiting(), "the twin had ended: nothing to cancel");
    }

    @Test
    void aTwinThatTimesOutNamesTheCallersTimeout() throws Exception {
        sandboxWithJitWorker();
        ExecutionResult result = sandbox.execute(new ExecutionRequest("long-timeout", "", Duration.ofSeconds(5), null,
                "<string>"));
        assertEquals(Status.TIMEOUT, result.status());
        assertEquals("Execution timed out after 5 seconds.", result.errorMessage());
    }

    @Test
    void aCallInASessionOrWithLittleTimeLeftNeverGetsATwin() throws Exception {
        sandboxWithJitWorker();
        assertNoTwin(new ExecutionRequest("long", "", Duration.ofSeconds(2), "s", "<string>"));
        assertNoTwin(new ExecutionRequest("long", "", Duration.ofSeconds(1), null, "<string>"));
    }

    @Test
    void aCallThatHasCalledAToolBeforeTheDelayNeverGetsATwin() throws Exception {
        SeenToolCalls seen = new SeenToolCalls();
        sandboxWithJitWorker(grant -> seen);
        assertNoTwin(withTools("race tool-wait:0 ok:0", Duration.ofSeconds(2)));
        assertEquals(List.of(ToolOp.CALL), seen.ops, "the tool was called once");
    }

    @Test
    void theFirstRunToCallAToolOwnsTheCallAndItsTwinIsCancelledBeforeItCanCallOne() throws Exception {
        SeenToolCalls seen = new SeenToolCalls();
        sandboxWithJitWorker(grant -> seen);
        InMemoryWorker jit = workers.awaitLaunched("jit-worker-1.1");
        ExecutionResult result = sandbox.execute(withTools("race tool:500 tool:1500", Duration.ofSeconds(5)), null,
                phase -> { });
        assertEquals("worker-1.1 called a tool\n", result.stdout(), result::toString);
        assertStartedThenCancelled(jit, "the twin is stopped when the first run calls");
        Thread.sleep(1_500); // the twin's own call, had it not been stopped, would have come by now
        assertEquals(List.of(ToolOp.CALL), seen.ops, "the tool was called once, by the run that owns the call");
    }

    @Test
    void aTwinThatCallsAToolFirstOwnsTheCallAndTheFirstRunIsCancelled() throws Exception {
        SeenToolCalls seen = new SeenToolCalls();
        sandboxWithJitWorker(grant -> seen);
        InMemoryWorker general = workers.awaitLaunched("worker-1.1");
        ExecutionResult result = sandbox.execute(withTools("race wait tool:0", Duration.ofSeconds(5)), null, phase -> { });
        assertEquals("jit-worker-1.1 called a tool\n", result.stdout(), result::toString);
        assertStartedThenCancelled(general, "the first run is stopped");
        assertEquals(List.of(ToolOp.CALL), seen.ops);
    }

    @Test
    void aSessionWhoseLastTwoCallsComputedIsRebuiltOnAnIdleJitWorkerAndRunsThereFromItsNextCall() throws Exception {
        sandboxWithJitWorker();
        InMemoryWorker general = workers.awaitLaunched("worker-1.1");
        InMemoryWorker jit = workers.awaitLaunched("jit-worker-1.1");
        inSession("s", "busy:0");
        assertEquals("busy\n", inSession("s", "busy:150").stdout(), "this one ran past the 100 ms delay");
        assertNull(inSession("s", "busy:0").sessionRebuilt(), "one long call between short ones leaves it where it is");
        inSession("s", "busy:150");
        assertNull(inSession("s", "busy:150").sessionRebuilt(), "two in a row: it computes");
        ExecutionResult moved = inSession("s", "where");
        assertEquals("jit-worker-1.1 ran where in s#1\n", moved.stdout());
        assertEquals(5, moved.sessionRebuilt(), "its five calls ran again there first, as the answer says");
        assertEquals(false, moved.sessionNew());
        for (String code : List.of("busy:0", "busy:150", "busy:0", "busy:150", "busy:150", "where")) {
            assertEquals(code, jit.nextCommand("execute").get("code"));
        }
        assertEquals("s#1", general.nextCommand("close-session").get("session"), "its old context is closed");
        ExecutionResult next = inSession("s", "again");
        assertEquals("jit-worker-1.1 ran again in s#1\n", next.stdout(), "it lives there now");
        assertNull(next.sessionRebuilt(), "moved once");
    }

    @Test
    void aSessionWhoseCallsPrintOtherwiseWhenRunAgainStaysOnItsWorkerForGood() throws Exception {
        sandboxWithJitWorker();
        InMemoryWorker jit = workers.awaitLaunched("jit-worker-1.1");
        inSession("s", "which"); // prints its worker's name: a value that differs when run again
        inSession("s", "busy:150");
        inSession("s", "busy:150");
        ExecutionResult stayed = inSession("s", "where");
        assertEquals("worker-1.1 ran where in s#1\n", stayed.stdout(), "as it was");
        assertNull(stayed.sessionRebuilt());
        assertEquals("which", jit.nextCommand("execute").get("code"), "the move was tried");
        assertEquals("s#1", jit.nextCommand("close-session").get("session"), "and what it made there closed");
        inSession("s", "busy:150");
        inSession("s", "busy:150");
        assertEquals("worker-1.1 ran again in s#1\n", inSession("s", "again").stdout());
        assertTrue(jit.noCommandWaiting(), "it is not tried again");
    }

    @Test
    void aSessionThatCannotBeRebuiltOrHasNoJitWorkerNeverMoves() throws Exception {
        sandboxWithJitWorker();
        InMemoryWorker jit = workers.awaitLaunched("jit-worker-1.1");
        inSession("s", "timeout"); // its state is wherever the stop left it: no journal
        inSession("s", "busy:150");
        inSession("s", "busy:150");
        assertEquals("worker-1.1 ran where in s#1\n", inSession("s", "where").stdout());
        assertTrue(jit.noCommandWaiting());
        sandbox.close();
        sandbox(1, 100, 10);
        inSession("t", "busy:150");
        inSession("t", "busy:150");
        ExecutionResult alone = inSession("t", "where");
        assertTrue(alone.stdout().startsWith("worker-"), "no JIT worker, no move: " + alone.stdout());
        assertNull(alone.sessionRebuilt());
    }

    /** The next run {@code worker} was sent is the one it was next told to cancel. */
    private static void assertStartedThenCancelled(InMemoryWorker worker, String why) throws InterruptedException {
        Map<String, Object> run = worker.nextCommand("execute");
        assertEquals(run.get("id"), worker.nextCommand("cancel").get("id"), why);
    }

    private static ExecutionRequest withTools(String code, Duration timeout) {
        return new ExecutionRequest(Language.PYTHON, code, "", timeout, null, "<string>", Map.of(), null, null, new ToolGrant(true, null, 5));
    }

    /** Runs a call the general worker never answers: the supervisor's deadline does, killing it. */
    private void assertNoTwin(ExecutionRequest request) throws InterruptedException {
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

    /**
     * What a compromised worker's answer may not carry to the client: the session fields, tool calls and installs
     * only the supervisor knows, fields the protocol does not have, and fields beyond the answer budget (SECURITY.md,
     * "Worker processes", and "What must hold", 2 and 7). The worker says {@code session_new: true}; the answer says
     * {@code sessionNew}, as the supervisor knows it.
     */
    private static void assertNothingForgedReachesTheAnswer(ExecutionResult answer, Boolean sessionNew) {
        String json = JsonMapper.builder().build().writeValueAsString(answer);
        assertAll(
                () -> assertEquals(Status.SUCCESS, answer.status()),
                () -> assertEquals(sessionNew, answer.sessionNew(), "session_new is the supervisor's"),
                () -> assertNull(answer.sessionRebuilt(), "session_rebuilt is the supervisor's"),
                () -> assertNull(answer.sessionEnded(), "session_ended is the supervisor's"),
                () -> assertEquals(List.of(), answer.toolCalls(), "tool_calls are the supervisor's record"),
                () -> assertEquals(0, answer.toolCallsOmitted(), "tool_calls_omitted is the supervisor's record"),
                () -> assertEquals(List.of(), answer.installing(), "the server installs no forged_module"),
                () -> assertTrue(answer.stdout().length() <= InMemoryWorkers.BUDGET.streamChars()
                        && answer.truncated().stdout(), "stdout cut to the budget"),
                () -> assertTrue(answer.result() instanceof String r
                        && r.length() <= InMemoryWorkers.BUDGET.resultChars() && answer.truncated().result(),
                        "result cut to the budget"),
                () -> assertFalse(json.contains("granted") || json.contains("forged"),
                        "a field or value the worker made up reached the answer"));
    }

    @Test
    void attackAWorkerCannotTellACallWithoutASessionAboutSessionsToolCallsOrInstalls() throws InterruptedException {
        sandbox(1, 100, 10);
        assertNothingForgedReachesTheAnswer(run("forge"), null);
    }

    @Test
    void attackAWorkerCannotTellASessionCallItsSessionEndedOrWasRebuilt() throws InterruptedException {
        sandbox(1, 100, 10);
        assertNothingForgedReachesTheAnswer(inSession("s", "forge"), true);
        assertNothingForgedReachesTheAnswer(inSession("s", "forge"), false);
        ExecutionResult next = inSession("s", "print(1)");
        assertEquals("worker-1.1 ran print(1) in s#1\n", next.stdout(), "the session lives on, as its worker does");
        assertEquals(3, sandbox.inspect("s", "s").calls());
    }

    @Test
    void aModuleTheCodeImportedMissingIsNamedInInstallingOnlyIfTheServerInstallsIt() throws InterruptedException {
        workers.autoInstalling("yaml");
        sandbox(1, 100, 10);
        assertEquals(List.of("yaml"), run("missing yaml made_up").installing());
        assertEquals(List.of(), run("missing made_up").installing());
    }

    @Test
    void aCallThatFindsNoWorkerReadyInTimeIsToldSoAndTheServerIsNotReady() throws InterruptedException {
        workers.thenStart(Startup.NEVER_READY);
        sandbox = new Sandbox(new Sandbox.Settings(1, 100, Duration.ZERO, Duration.ofSeconds(1),
                new SessionSettings(10, 10, 10, Duration.ofMinutes(10))), workers, ToolBroker.OFF).start();
        ExecutionResult result = inSession("s", "print(1)");
        assertEquals(Status.SETUP_ERROR, result.status());
        assertTrue(result.errorMessage().startsWith("No sandbox worker became available within 0 seconds"),
                result.errorMessage());
        assertFalse(sandbox.ready());
    }
}
