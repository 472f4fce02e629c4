package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.execution.ToolReply;
import dev.pysandbox.execution.Truncation;
import dev.pysandbox.wire.WireCodec;
import dev.pysandbox.wire.WorkerCommand;
import dev.pysandbox.wire.WorkerEvent;

/**
 * The supervisor's handle on a worker trusts nothing the worker sends, and answers every call exactly once
 * whatever the worker does. The worker is a shell script in the first test, an {@link InMemoryWorker} in the
 * others, whose deadlines are run by {@link ManualTimers} when the test says so.
 */
class WorkerProcessTest {
    private static final Duration KILL_GRACE = Duration.ofSeconds(1);
    private static final Duration SETUP_LIMIT = Duration.ofSeconds(120);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final ManualTimers manual = new ManualTimers();
    private final CompletableFuture<WorkerProcess> ready = new CompletableFuture<>();
    private final CompletableFuture<WorkerProcess> gone = new CompletableFuture<>();

    @AfterEach
    void stopTimers() {
        timers.shutdownNow();
    }

    private static final WorkerProcess.Listener QUIET = new WorkerProcess.Listener() {
        @Override
        public void ready(WorkerProcess w, String engine, boolean aotCache) {
        }

        @Override
        public void gone(WorkerProcess w) {
        }
    };

    /** The worker's own deadline, which answers {@code timeout}, must come before a tool call's (ServerExitIT). */
    @Test
    void aToolCallMayOutlastTheCodesTimeLeftByAMomentSoTheExecutionsOwnTimeoutAnswers() throws Exception {
        String result = WireCodec.encode(new WorkerEvent.Result(1, new RunReport(Status.SUCCESS, "", "", 0,
                0.1, null, null, Truncation.NONE), false));
        String script = String.join("\n",
                "read -r execute",
                "echo '{\"type\":\"started\",\"id\":1}'",
                "echo '{\"type\":\"tool-call\",\"id\":1,\"seq\":1,\"op\":\"call\",\"tool\":\"srv.x\"}'",
                "read -r reply",
                "printf '%s\\n' '" + result + "'",
                "exec sleep 600");
        SeenToolCalls tools = new SeenToolCalls();
        executeOnScriptedWorker(script, tools, worker -> { });
        Duration given = tools.times.get(0);
        assertTrue(given.compareTo(Duration.ofSeconds(60)) > 0, "the tool call got " + given);
        assertTrue(given.compareTo(Duration.ofSeconds(60).plus(WorkerProcess.TOOL_DEADLINE_GRACE)) <= 0, given::toString);
    }

    /**
     * Sends {@code pass} (timeout 60 s) to a worker played by a shell script and waits for its answer; {@code check}
     * sees the worker before it is killed.
     */
    private WorkerRun executeOnScriptedWorker(String script, ToolCalls tools, Consumer<WorkerProcess> check)
            throws Exception {
        Process process = new ProcessBuilder("sh", "-c", script).start();
        WorkerProcess worker = new WorkerProcess("worker-test", process, timers, Duration.ofSeconds(1),
                Duration.ofSeconds(120), AnswerBudget.of(1024, 1024), QUIET);
        try {
            var answer = worker.execute(1, new ExecutionRequest("pass", "", Duration.ofSeconds(60), null, "<string>"),
                    tools);
            worker.start();
            WorkerRun answered = answer.get(60, TimeUnit.SECONDS);
            check.accept(worker);
            return answered;
        } finally {
            worker.kill();
        }
    }

    @Test
    void attackLinesOfUnknownTypesOrNoProtocolAreSkippedAndAnUnknownToolOperationIsStillAnswered(@TempDir Path dir)
            throws Exception {
        String result = WireCodec.encode(new WorkerEvent.Result(1, new RunReport(Status.SUCCESS, "done\n", "", 0,
                0.1, null, null, Truncation.NONE), false));
        Path sent = dir.resolve("sent");
        String script = String.join("\n",
                "echo 'OpenJDK 64-Bit Server VM warning: not protocol'",
                "echo '{\"type\":\"reboot\",\"id\":1}'",
                "echo '[\"started\",1]'",
                "read -r execute",
                "echo '{\"type\":\"started\",\"id\":1}'",
                "echo '{\"type\":\"tool-call\",\"id\":1,\"seq\":7,\"op\":\"format_disk\",\"tool\":\"srv.x\"}'",
                "read -r reply",
                "printf '%s\\n' \"$execute\" \"$reply\" > '" + sent + "'",
                "printf '%s\\n' '" + result + "'", // dash's echo would read the JSON's \\n as a newline
                "exec sleep 600");
        SeenToolCalls tools = new SeenToolCalls();
        RunReport answered = executeOnScriptedWorker(script, tools,
                worker -> assertTrue(!worker.isGone(), "stray lines do not end the worker")).report();
        assertEquals(Status.SUCCESS, answered.status(), answered.toString());
        assertEquals("done\n", answered.stdout());
        List<String> lines = Files.readAllLines(sent);
        assertTrue(WireCodec.decode(lines.get(0), WorkerCommand.class) instanceof WorkerCommand.Execute execute
                && execute.id() == 1 && execute.code().equals("pass"), lines.get(0));
        assertEquals(new WorkerCommand.ToolResult(1, 7, ToolReply.ok("seen").json()),
                WireCodec.decode(lines.get(1), WorkerCommand.class));
        assertEquals(1, tools.ops.size());
        assertNull(tools.ops.get(0), "the unknown operation reaches the tools, which refuse it, as null");
    }

    @Test
    void attackAWorkerLineLargerThanTheProtocolAllowsEndsTheWorkerAndAnswersItsCall() throws Exception {
        // 20 MB of one line, more than WireCodec.MAX_LINE_BYTES, then a worker that would never answer.
        Process process = new ProcessBuilder("sh", "-c",
                "head -c 20000000 /dev/zero | tr '\\0' a; echo; exec sleep 600").start();
        CountDownLatch gone = new CountDownLatch(1);
        WorkerProcess worker = new WorkerProcess("worker-test", process, timers, Duration.ofSeconds(1),
                Duration.ofSeconds(120), AnswerBudget.of(1024, 1024), new WorkerProcess.Listener() {
                    @Override
                    public void ready(WorkerProcess w, String engine, boolean aotCache) {
                    }

                    @Override
                    public void gone(WorkerProcess w) {
                        gone.countDown();
                    }
                });
        var answer = worker.execute(1, new ExecutionRequest("pass", "", Duration.ofSeconds(60), null, "<string>"),
                ToolBroker.OFF.open(ToolGrant.NONE));
        worker.start();
        RunReport result = answer.get(60, TimeUnit.SECONDS).report();
        assertEquals(Status.EXECUTION_ERROR, result.status());
        assertTrue(result.errorMessage().contains("larger than the protocol allows (" + WireCodec.MAX_LINE_BYTES),
                result.errorMessage());
        assertTrue(gone.await(30, TimeUnit.SECONDS), "the worker was not ended");
        assertTrue(process.waitFor(30, TimeUnit.SECONDS) && !process.isAlive());
        assertTrue(worker.isGone());
    }

    /** A worker handle on an in-memory worker, started and ready. */
    private WorkerProcess started(InMemoryWorker process) throws Exception {
        WorkerProcess worker = new WorkerProcess(process.name(), process, manual, KILL_GRACE, SETUP_LIMIT,
                InMemoryWorkers.BUDGET, new WorkerProcess.Listener() {
                    @Override
                    public void ready(WorkerProcess w, String engine, boolean aotCache) {
                        ready.complete(w);
                    }

                    @Override
                    public void gone(WorkerProcess w) {
                        gone.complete(w);
                    }
                });
        worker.start();
        return worker;
    }

    private WorkerProcess readyWorker(InMemoryWorker process) throws Exception {
        WorkerProcess worker = started(process);
        assertSame(worker, ready.get(30, TimeUnit.SECONDS));
        assertTrue(worker.isReady());
        return worker;
    }

    private static InMemoryWorker inMemory() {
        return new InMemoryWorker("worker-1.1", InMemoryWorker.Startup.READY);
    }

    private static CompletableFuture<WorkerRun> call(WorkerProcess worker, long id, String code) {
        return worker.execute(id, new ExecutionRequest(code, "", TIMEOUT, null, "<string>"),
                ToolBroker.OFF.open(ToolGrant.NONE));
    }

    private static RunReport answer(CompletableFuture<WorkerRun> call) throws Exception {
        return call.get(30, TimeUnit.SECONDS).report();
    }

    @Test
    void aCallIsAnsweredWithTheWorkersResult() throws Exception {
        WorkerProcess worker = readyWorker(inMemory());
        RunReport result = answer(call(worker, 1, "print(1)"));
        assertEquals(Status.SUCCESS, result.status());
        assertEquals("worker-1.1 ran print(1)\n", result.stdout());
        assertEquals(1, worker.callsServed());
        assertTrue(worker.isReady(), "the worker serves the next call");
        assertEquals(List.of(Duration.ofSeconds(120), TIMEOUT.plus(KILL_GRACE)), manual.history(),
                "a setup deadline until the code starts, then the timeout and the kill grace");
        assertFalse(manual.waits(TIMEOUT.plus(KILL_GRACE)), "the answer cancelled the deadline");
    }

    @Test
    void aWorkerThatDiesMidCallAnswersItsCallWithAnExecutionErrorAndIsGone() throws Exception {
        WorkerProcess worker = readyWorker(inMemory());
        RunReport result = answer(call(worker, 1, "crash"));
        assertEquals(Status.EXECUTION_ERROR, result.status());
        assertTrue(result.errorMessage().contains("stopped unexpectedly (exit code 1)")
                && result.errorMessage().contains("Please retry"), result.errorMessage());
        assertSame(worker, gone.get(30, TimeUnit.SECONDS));
        assertTrue(worker.isGone() && !worker.isReady());
        assertEquals(new WorkerProcess.Ending(WorkerEndCause.EXITED, "stopped unexpectedly (exit code 1)"),
                worker.ending());
        assertEquals(Notice.Level.WARNING, worker.ending().level());
    }

    @Test
    void aWorkerEndedForRunningOutOfHeapAnswersWithTheMemoryLimit() throws Exception {
        WorkerProcess worker = readyWorker(inMemory());
        RunReport result = answer(call(worker, 1, "oom"));
        assertEquals(Status.EXECUTION_ERROR, result.status());
        assertEquals(RunReport.MEMORY_LIMIT_MESSAGE, result.errorMessage());
        gone.get(30, TimeUnit.SECONDS);
        assertEquals(new WorkerProcess.Ending(WorkerEndCause.OUT_OF_MEMORY, "ran out of memory (worker.heap)"),
                worker.ending());
    }

    @Test
    void aHungCallIsAnsweredAtItsTimeoutPlusGraceAndTheWorkerKilled() throws Exception {
        InMemoryWorker process = inMemory();
        WorkerProcess worker = readyWorker(process);
        CompletableFuture<WorkerRun> call = call(worker, 1, "hang");
        manual.fire(TIMEOUT.plus(KILL_GRACE));
        RunReport result = answer(call);
        assertEquals(Status.TIMEOUT, result.status());
        assertTrue(result.errorMessage().contains("did not stop in time and was replaced"), result.errorMessage());
        assertFalse(worker.isReady(), "a worker being killed is never handed out again");
        assertSame(worker, gone.get(30, TimeUnit.SECONDS));
        assertEquals(InMemoryWorker.KILLED, process.exitValue());
        assertEquals(new WorkerProcess.Ending(WorkerEndCause.MISSED_TIMEOUT,
                "did not stop a call at its timeout and was killed"), worker.ending());
    }

    @Test
    void aCallTheWorkerNeverStartsIsAnsweredAtTheSetupLimitAndTheWorkerKilled() throws Exception {
        InMemoryWorker process = inMemory();
        WorkerProcess worker = readyWorker(process);
        CompletableFuture<WorkerRun> call = call(worker, 1, "stall");
        manual.fire(SETUP_LIMIT);
        RunReport result = answer(call);
        assertEquals(Status.SETUP_ERROR, result.status());
        assertTrue(result.errorMessage().contains("did not start the code within 120 seconds"), result.errorMessage());
        gone.get(30, TimeUnit.SECONDS);
        assertEquals(InMemoryWorker.KILLED, process.exitValue());
    }

    /**
     * Runs {@code code} on a fresh in-memory worker that breaks the protocol with it: the call is answered as lost,
     * saying {@code messagePart}, and the worker is killed.
     */
    private RunReport lostToABreachOfProtocol(String code, String messagePart) throws Exception {
        InMemoryWorker process = inMemory();
        RunReport result = answer(call(readyWorker(process), 1, code));
        assertEquals(Status.EXECUTION_ERROR, result.status());
        assertTrue(result.errorMessage().contains(messagePart), result.errorMessage());
        gone.get(30, TimeUnit.SECONDS);
        assertEquals(InMemoryWorker.KILLED, process.exitValue());
        return result;
    }

    @Test
    void attackAnInMemoryWorkerLineLargerThanTheProtocolAllowsEndsTheWorkerAndAnswersItsCall() throws Exception {
        lostToABreachOfProtocol("flood", "larger than the protocol allows (" + WireCodec.MAX_LINE_BYTES);
    }

    @Test
    void attackAResultWithoutAStatusEndsTheWorkerAndItsCallIsAnsweredAsLost() throws Exception {
        RunReport result = lostToABreachOfProtocol("no-status", "sent a result without a status");
        assertEquals("", result.stdout(), "nothing of a broken report reaches the caller");
        assertEquals(new WorkerProcess.Ending(WorkerEndCause.BROKEN_RESULT, "sent a result without a status and was"
                + " replaced"), gone.get().ending());
    }

    @Test
    void aLineThatIsNotProtocolIsSkippedAndTheCallAnswered() throws Exception {
        WorkerProcess worker = readyWorker(inMemory());
        assertEquals("after a stray line\n", answer(call(worker, 1, "stray")).stdout());
        assertTrue(worker.isReady());
    }

    @Test
    void aWorkerThatAsksToBeReplacedAnswersItsCallAndIsKilled() throws Exception {
        InMemoryWorker process = inMemory();
        WorkerProcess worker = readyWorker(process);
        assertEquals(Status.SUCCESS, answer(call(worker, 1, "recycle")).status());
        gone.get(30, TimeUnit.SECONDS);
        assertEquals(InMemoryWorker.KILLED, process.exitValue());
        assertEquals(Notice.Level.INFO, worker.ending().level(), "a precaution, not a failure");
    }

    @Test
    void aCancelReachesTheWorkerAndItsAnswerEndsTheCall() throws Exception {
        InMemoryWorker process = inMemory();
        WorkerProcess worker = readyWorker(process);
        CompletableFuture<WorkerRun> call = call(worker, 7, "sleep");
        assertEquals("execute", process.nextCommand().get("type"));
        worker.cancel(7);
        Map<String, Object> cancel = process.nextCommand();
        assertEquals(Map.of("type", "cancel", "id", 7), Map.of("type", cancel.get("type"), "id", cancel.get("id")));
        assertEquals("Cancelled", answer(call).errorMessage());
        assertTrue(worker.isReady(), "a cancelled call leaves the worker serving");
    }

    @Test
    void aCallHandedToAWorkerThatIsAlreadyGoneIsAnsweredAtOnce() throws Exception {
        InMemoryWorker process = inMemory();
        WorkerProcess worker = readyWorker(process);
        process.destroyForcibly();
        gone.get(30, TimeUnit.SECONDS);
        RunReport result = answer(call(worker, 1, "print(1)"));
        assertEquals(Status.SETUP_ERROR, result.status());
        assertTrue(result.errorMessage().contains("stopped before this call could start"), result.errorMessage());
    }

    @Test
    void aWorkerThatExitsBeforeItIsReadyIsGoneWithoutEverBeingReady() throws Exception {
        WorkerProcess worker = started(new InMemoryWorker("worker-1.1", InMemoryWorker.Startup.FAILS_TO_START));
        assertSame(worker, gone.get(30, TimeUnit.SECONDS));
        assertFalse(ready.isDone());
        assertFalse(worker.isReadyOnce());
    }

    @Test
    void aRetiredWorkerIsAskedToExitAtEndOfInputAndDoes() throws Exception {
        InMemoryWorker process = inMemory();
        WorkerProcess worker = readyWorker(process);
        worker.retire();
        assertFalse(worker.isReady());
        gone.get(30, TimeUnit.SECONDS);
        assertEquals(0, process.exitValue(), "it exited on its own; the kill after the grace was not needed");
        assertEquals(Notice.Level.DEBUG, worker.ending().level());
    }
}
