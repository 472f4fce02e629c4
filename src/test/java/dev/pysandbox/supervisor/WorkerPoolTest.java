package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.supervisor.InMemoryWorker.Startup;

/**
 * The pool's rules against in-memory workers: slots are filled, a worker that dies is replaced in its slot and the
 * client told why, a slot whose worker cannot start backs off, a worker is retired after worker.max-calls. Timers
 * run when the test says ({@link ManualTimers}), so a back-off of seconds is a step here.
 */
class WorkerPoolTest {
    /** A guard against a hang, far above what any wait here takes. */
    private static final Duration HANG = Duration.ofSeconds(30);

    private final ManualTimers timers = new ManualTimers();
    private final BlockingQueue<Notice> notices = new LinkedBlockingQueue<>();
    private final BlockingQueue<WorkerProcess> goneWorkers = new LinkedBlockingQueue<>();
    private WorkerPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    private WorkerPool pool(int size, int maxCalls, InMemoryWorkers workers) {
        return pool(size, 0, maxCalls, workers);
    }

    private WorkerPool pool(int size, int longCallSlots, int maxCalls, InMemoryWorkers workers) {
        pool = new WorkerPool(size, longCallSlots, maxCalls, workers, timers, Duration.ofSeconds(1), Duration.ofSeconds(120),
                goneWorkers::add, notices::add);
        pool.start();
        return pool;
    }

    private static WorkerProcess acquire(WorkerPool pool) throws Exception {
        WorkerProcess worker = pool.acquire(null, HANG, () -> { });
        assertTrue(worker != null, "no worker became idle");
        return worker;
    }

    private static RunReport run(WorkerPool pool, WorkerProcess worker, String code) throws Exception {
        RunReport result = worker.execute(1, new ExecutionRequest(code, "", Duration.ofSeconds(5), null,
                "<string>"), ToolBroker.OFF.open(ToolGrant.NONE)).get(HANG.toSeconds(), TimeUnit.SECONDS).report();
        pool.release(worker);
        return result;
    }

    private Notice nextNotice() throws InterruptedException {
        Notice notice = notices.poll(HANG.toSeconds(), TimeUnit.SECONDS);
        assertTrue(notice != null, "no notice");
        return notice;
    }

    @Test
    void everySlotGetsAWorkerAndEachIsHandedToOneCallAtATime() throws Exception {
        WorkerPool pool = pool(2, 100, new InMemoryWorkers(Startup.READY));
        WorkerProcess first = acquire(pool);
        WorkerProcess second = acquire(pool);
        assertNotSame(first, second);
        assertEquals(List.of("worker-1.1", "worker-2.1"), List.of(first.name(), second.name()).stream().sorted().toList());
        assertNull(pool.acquire(null, Duration.ZERO, () -> { }), "both are busy");
        pool.release(first);
        assertSame(first, pool.acquire(null, Duration.ZERO, () -> { }));
        assertTrue(pool.serving());
    }

    @Test
    void aJitWorkerForLongCallsIsNeverHandedToACallAsItStarts() throws Exception {
        WorkerPool pool = pool(1, 1, 100, new InMemoryWorkers(Startup.READY));
        WorkerProcess jit = awaitLongCallWorker(pool);
        WorkerProcess general = acquire(pool);
        assertEquals("worker-1.1", general.name());
        assertEquals("jit-worker-1.1", jit.name());
        assertNull(pool.tryAcquireForLongCall(), "handed out once");
        pool.release(jit);
        assertNull(pool.acquire(null, Duration.ZERO, () -> { }), "the general worker is busy and the JIT one is not for it");
        pool.release(general);
        assertSame(general, pool.acquire(null, Duration.ZERO, () -> { }));
        assertSame(jit, pool.tryAcquireForLongCall());
    }

    @Test
    void thePoolServesOnlyOnceAGeneralWorkerIsUp() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.NEVER_READY);
        WorkerPool pool = pool(1, 1, 100, workers.thenStart(Startup.NEVER_READY, Startup.READY));
        timers.fire(Duration.ofSeconds(10)); // the next slot starts when the one before is slow to be ready
        workers.awaitLaunched("jit-worker-1.1");
        awaitLongCallWorker(pool);
        assertFalse(pool.serving(), "a JIT worker for long calls alone serves no call");
    }

    private static WorkerProcess awaitLongCallWorker(WorkerPool pool) throws InterruptedException {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (System.nanoTime() < deadline) {
            WorkerProcess worker = pool.tryAcquireForLongCall();
            if (worker != null) {
                return worker;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no JIT worker for long calls became idle");
    }

    @Test
    void theNextWorkerStartsOnlyOnceTheFirstCallEndsWhenThatCallIsAlone() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.READY).thenStart(Startup.READY_WHEN_TOLD);
        WorkerPool pool = pool(1, 1, 100, workers);
        WorkerProcess worker = firstCallSentBeforeAnyWorkerIsUp(pool, workers);
        Thread.sleep(200); // time enough for a start that should not happen
        assertEquals(List.of("worker-1.1"), workers.launchedNames(), "the JIT worker waits while the first call runs");
        assertEquals(Status.SUCCESS, run(pool, worker, "print(1)").status());
        workers.awaitLaunched("jit-worker-1.1");
    }

    @Test
    void aCallShortOfAWorkerStartsTheNextAtOnce() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.READY).thenStart(Startup.READY_WHEN_TOLD);
        WorkerPool pool = pool(2, 100, workers);
        WorkerProcess first = firstCallSentBeforeAnyWorkerIsUp(pool, workers);
        WorkerProcess second = acquire(pool); // waits, which starts worker-2.1
        assertEquals("worker-2.1", second.name());
        pool.release(first);
        pool.release(second);
    }

    /** The worker of a client's first call, sent before worker-1.1 ({@link Startup#READY_WHEN_TOLD}) is up. */
    private static WorkerProcess firstCallSentBeforeAnyWorkerIsUp(WorkerPool pool, InMemoryWorkers workers) throws Exception {
        InMemoryWorker first = workers.awaitLaunched("worker-1.1");
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<WorkerProcess> call = CompletableFuture.supplyAsync(() -> {
            try {
                return pool.acquire(null, HANG, waiting::countDown);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        assertTrue(waiting.await(HANG.toSeconds(), TimeUnit.SECONDS));
        first.becomeReady();
        return call.get(HANG.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void aCallThatWaitsForAWorkerIsToldSoOnce() throws Exception {
        WorkerPool pool = pool(1, 100, new InMemoryWorkers(Startup.READY));
        WorkerProcess only = acquire(pool);
        int[] told = new int[1];
        assertNull(pool.acquire(null, Duration.ofMillis(1), () -> told[0]++));
        assertEquals(1, told[0]);
        pool.release(only);
    }

    @Test
    void aWorkerThatDiesIsReplacedInItsSlotAndTheClientIsToldWhy() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.READY);
        WorkerPool pool = pool(1, 100, workers);
        WorkerProcess first = acquire(pool);
        assertEquals(Status.EXECUTION_ERROR, run(pool, first, "crash").status());
        assertSame(first, goneWorkers.poll(HANG.toSeconds(), TimeUnit.SECONDS), "its sessions are told it is gone");
        assertEquals(Notice.warning("Sandbox worker worker-1.1 stopped unexpectedly (exit code 1); worker-1.2"
                + " replaces it."), nextNotice());
        WorkerProcess second = acquire(pool);
        assertEquals("worker-1.2", second.name());
        assertEquals("worker-1.2 ran print(1)\n", run(pool, second, "print(1)").stdout());
        assertEquals(List.of("worker-1.1", "worker-1.2"), workers.launchedNames());
    }

    @Test
    void aWorkerThatDoesNotStopACallAtItsTimeoutIsKilledAndReplaced() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.READY);
        WorkerPool pool = pool(1, 100, workers);
        WorkerProcess hung = acquire(pool);
        var call = hung.execute(1, new ExecutionRequest("hang", "", Duration.ofSeconds(5), null, "<string>"),
                ToolBroker.OFF.open(ToolGrant.NONE));
        call.whenComplete((result, error) -> pool.release(hung));
        timers.fire(Duration.ofSeconds(6)); // the timeout and the kill grace
        assertEquals(Status.TIMEOUT, call.get(HANG.toSeconds(), TimeUnit.SECONDS).report().status());
        assertEquals(Notice.warning("Sandbox worker worker-1.1 did not stop a call at its timeout and was killed;"
                + " worker-1.2 replaces it."), nextNotice());
        assertEquals(InMemoryWorker.KILLED, workers.awaitLaunched("worker-1.1").exitValue());
        assertEquals("worker-1.2", acquire(pool).name());
    }

    @Test
    void aWorkerThatStopsACallCleanlyAtItsTimeoutKeepsServing() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.READY);
        WorkerPool pool = pool(1, 100, workers);
        WorkerProcess first = acquire(pool);
        assertEquals(Status.TIMEOUT, run(pool, first, "timeout").status());
        assertFalse(timers.waits(Duration.ofSeconds(6)), "no deadline (the timeout and the kill grace) is left to kill it");
        WorkerProcess next = acquire(pool);
        assertSame(first, next, "the worker that answered the timeout serves the next call");
        assertEquals("worker-1.1 ran print(1)\n", run(pool, next, "print(1)").stdout());
        assertTrue(workers.awaitLaunched("worker-1.1").isAlive());
        assertEquals(List.of("worker-1.1"), workers.launchedNames());
        assertTrue(notices.isEmpty(), "nothing to tell the client: " + notices);
    }

    @Test
    void aCallPinnedToAWorkerThatIsGoneIsToldSo() throws Exception {
        WorkerPool pool = pool(1, 100, new InMemoryWorkers(Startup.READY));
        WorkerProcess first = acquire(pool);
        run(pool, first, "crash");
        goneWorkers.poll(HANG.toSeconds(), TimeUnit.SECONDS);
        assertThrows(WorkerPool.WorkerGoneException.class, () -> pool.acquire(first, HANG, () -> { }));
    }

    @Test
    void aSlotWhoseWorkerNeverBecomesReadyRetriesWithABackOffAndTellsTheClientOnce() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.FAILS_TO_START);
        WorkerPool pool = pool(1, 100, workers);
        Notice first = nextNotice();
        assertEquals(Notice.Level.ERROR, first.level());
        assertTrue(first.text().contains("worker-1.1 could not start; retrying"), first.text());
        for (long seconds : new long[] {1, 2, 4, 8, 16, 30, 30}) {
            timers.fire(Duration.ofSeconds(seconds)); // the next start, after the back-off
        }
        timers.fire(Duration.ofSeconds(30));
        assertEquals(List.of("worker-1.1", "worker-1.2", "worker-1.3", "worker-1.4", "worker-1.5", "worker-1.6",
                "worker-1.7", "worker-1.8", "worker-1.9"), workers.launchedNames());
        assertTrue(notices.isEmpty(), "a slot failing again is not announced again: " + notices);
        assertFalse(pool.serving(), "a slot that cannot start a worker does not count as serving");

        workers.startFromNowOn(Startup.READY);
        timers.fire(Duration.ofSeconds(30));
        WorkerProcess up = acquire(pool);
        assertEquals("worker-1.10", up.name());
        assertTrue(pool.serving());

        // Up once, the back-off starts again from its first wait: a crash is replaced at once, and a failure to
        // start after it waits a second.
        workers.thenStart(Startup.FAILS_TO_START);
        run(pool, up, "crash");
        workers.awaitLaunched("worker-1.11");
        timers.fire(Duration.ofSeconds(1));
        acquire(pool);
    }

    @Test
    void aWorkerIsRetiredAfterMaxCallsAndReplaced() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.READY);
        WorkerPool pool = pool(1, 2, workers);
        WorkerProcess first = acquire(pool);
        run(pool, first, "a");
        assertSame(first, acquire(pool));
        run(pool, first, "b");
        assertSame(first, goneWorkers.poll(HANG.toSeconds(), TimeUnit.SECONDS));
        Notice retired = nextNotice();
        assertEquals(new Notice(Notice.Level.DEBUG, "Sandbox worker worker-1.1 served 2 calls (worker.max-calls);"
                + " worker-1.2 replaces it."), retired);
        assertEquals(0, workers.awaitLaunched("worker-1.1").exitValue(), "it exited at end of input");
        assertEquals("worker-1.2", acquire(pool).name());
    }

    @Test
    void aSlotIsServingWhileItsWorkerIsReplacedAfterACrash() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.READY).thenStart(Startup.READY, Startup.NEVER_READY);
        WorkerPool pool = pool(1, 100, workers);
        run(pool, acquire(pool), "crash");
        workers.awaitLaunched("worker-1.2");
        assertTrue(pool.serving(), "a routine replacement keeps the pool serving");
        assertNull(pool.acquire(null, Duration.ZERO, () -> { }), "while no worker is ready");
    }

    @Test
    void aPoolThatIsNotYetReadyIsNotServing() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.NEVER_READY);
        WorkerPool pool = pool(1, 100, workers);
        workers.awaitLaunched("worker-1.1");
        assertFalse(pool.serving());
    }

    @Test
    void closingThePoolEndsEveryWorker() throws Exception {
        InMemoryWorkers workers = new InMemoryWorkers(Startup.READY);
        WorkerPool pool = pool(2, 100, workers);
        acquire(pool);
        acquire(pool);
        pool.close();
        assertFalse(workers.awaitLaunched("worker-1.1").isAlive());
        assertFalse(workers.awaitLaunched("worker-2.1").isAlive());
        assertFalse(pool.serving());
        assertNull(pool.acquire(null, HANG, () -> { }), "a closed pool hands out nothing");
    }
}
