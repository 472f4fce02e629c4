package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.supervisor.SessionRegistry.Session;
import dev.pysandbox.supervisor.TwinRace.Run;

/**
 * Gives a call that outruns the interpreter a twin on an idle JIT worker ({@link WorkerRole#LONG_CALLS}): once it
 * has run {@code twinAfter} on its general worker, the same request starts on the JIT worker with the time its
 * timeout leaves, while the first run goes on. The first to finish answers and the other is cancelled
 * ({@link TwinRace}). Long CPU-bound code then runs at about CPython's speed instead of an order of magnitude slower,
 * and a call that was about to finish on the interpreter loses nothing it had done (BENCHMARKS.md, "Long calls
 * and their twins").
 *
 * <p>A text whose call took {@link #LONG_TEXT} or more before gets its twin at once ({@link LongTexts}).
 *
 * <p>Only a call that nothing outside its context can see running twice gets a twin: no session (its state lives
 * in its worker), and no call of the operator's tools (they act on other servers), which the race enforces: the
 * first run to call one owns the call. Each run has its own scratch space, and only the owner's files are returned.
 *
 * <p>A session that computes moves instead: {@link #jitWorkerFor} says when its next call is to rebuild it on a JIT
 * worker first, as a session whose worker was lost is rebuilt.
 */
final class LongCalls {
    private static final Logger log = LoggerFactory.getLogger(LongCalls.class);
    /** Below this much time left, a twin would cost more than it could win: the call runs alone. */
    static final Duration LEAST_TIME_LEFT = Duration.ofSeconds(1);
    /**
     * A text whose call took this long gets its twin at once the next time ({@link LongTexts}): {@code fib(27)},
     * 0.2 s on CPython, took 0.7-1.3 s on the interpreter, too short for the delay, and is compiled code on the JIT
     * worker once that has run it (BENCHMARKS.md, "Long calls and their twins").
     */
    static final Duration LONG_TEXT = Duration.ofMillis(500);
    /**
     * How many long calls in a row make a session one that computes. One is not enough: on a busy machine agent
     * code, new text every call, crosses the delay now and then, and runs 2-4 times slower on the JIT worker than on
     * the interpreter; a session of the agent corpus moved after one such call took 62.4 s where it had taken 14.8 s,
     * while a session that ran the same search call after call gained (BENCHMARKS.md, "Sessions that compute").
     */
    static final int COMPUTING_CALLS = 2;
    /** How often a call past {@code twinAfter} looks again for an idle JIT worker. */
    private static final long RETRY_MILLIS = 250;

    private final WorkerPool pool;
    private final Duration twinAfter;
    private final LongSupplier callIds;
    private final LongTexts longTexts = new LongTexts();

    LongCalls(WorkerPool pool, Duration twinAfter, LongSupplier callIds) {
        this.pool = pool;
        this.twinAfter = twinAfter;
        this.callIds = callIds;
    }

    /** The race of a request that may get a twin (see the class comment); null for one that never does. */
    TwinRace raceFor(ExecutionRequest request) {
        return request.sessionId() == null && pool.hasLongCallSlots() ? new TwinRace() : null;
    }

    /** A session call that ran {@code nanos}, sent to answered, counts towards the session computing. */
    void ended(Session session, long nanos) {
        session.computingCalls = nanos >= twinAfter.toNanos() ? session.computingCalls + 1 : 0;
    }

    /**
     * An idle JIT worker, held for the caller, on which a session that computes is to be rebuilt before its next call
     * runs; null when it is to stay where it is. A session computes when its last {@value #COMPUTING_CALLS} calls in
     * a row each ran {@code twinAfter} or longer, the delay after which a call without a session gets a twin. Only
     * a session that can be rebuilt moves, once, from a general worker, when a JIT worker is idle with room for it;
     * it waits for none.
     *
     * @param hasRoom whether a worker holds fewer sessions than {@code sessions.per-worker}, so the move closes none
     */
    WorkerProcess jitWorkerFor(Session session, Predicate<WorkerProcess> hasRoom) {
        if (!pool.hasLongCallSlots() || session.staysPut || session.calls == 0
                || session.computingCalls < COMPUTING_CALLS || session.journal.refusal() != null
                || session.worker == null || pool.inLongCallSlot(session.worker)) {
            return null;
        }
        WorkerProcess jit = pool.tryAcquireForLongCall();
        if (jit != null && !hasRoom.test(jit)) {
            pool.release(jit);
            return null;
        }
        return jit;
    }

    /**
     * How call {@code id}, sent to {@code worker} at {@code sentNanos} with {@code race}'s first gate on its tools,
     * ended: its own answer, or its twin's if that finished first.
     *
     * @param twinTools the tools for a twin, behind {@code race}'s gate for it
     * @throws InterruptedException if the caller stopped waiting: a twin is cancelled here, the first run is the
     *                              caller's to cancel on {@code worker}
     */
    WorkerRun await(WorkerProcess worker, long id, ExecutionRequest request, TwinRace race,
            Supplier<ToolCalls> twinTools, long sentNanos, CompletableFuture<WorkerRun> answer)
            throws InterruptedException, ExecutionException {
        answer.whenComplete((run, error) -> race.finished(Run.FIRST, run, error));
        boolean knownLong = longTexts.ranLongBefore(request.code());
        try {
            return race(worker, id, request, race, twinTools, sentNanos, knownLong);
        } finally {
            if (!knownLong && System.nanoTime() - sentNanos >= LONG_TEXT.toNanos()) {
                longTexts.ranLong(request.code());
            }
        }
    }

    private WorkerRun race(WorkerProcess worker, long id, ExecutionRequest request, TwinRace race,
            Supplier<ToolCalls> twinTools, long sentNanos, boolean knownLong)
            throws InterruptedException, ExecutionException {
        long twinAt = sentNanos + (knownLong ? 0 : twinAfter.toNanos());
        while (true) {
            try {
                return race.answer().get(Math.max(0, twinAt - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // still running: start a twin if there is time and a JIT worker
            }
            long ranNanos = System.nanoTime() - sentNanos;
            Duration left = request.timeout().minusNanos(ranNanos);
            if (left.compareTo(LEAST_TIME_LEFT) < 0) {
                return race.answer().get();
            }
            WorkerProcess jit = pool.tryAcquireForLongCall();
            if (jit == null) {
                twinAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
                continue;
            }
            if (!race.openForTwin()) { // finished meanwhile, or it called a tool
                pool.release(jit);
                return race.answer().get();
            }
            race.onLoss(Run.FIRST, () -> worker.cancel(id));
            log.info("call {} has run {} ms on {}; its twin starts on {}{}", id, ranNanos / 1_000_000, worker.name(),
                    jit.name(), knownLong ? " (its text ran long before)" : "");
            return runTwin(jit, request, race, twinTools.get(), left, ranNanos / 1e9);
        }
    }

    /** Starts the twin on {@code jit} within {@code left}; its report counts the time the call ran before it. */
    private WorkerRun runTwin(WorkerProcess jit, ExecutionRequest request, TwinRace race, ToolCalls tools,
            Duration left, double secondsBefore) throws InterruptedException, ExecutionException {
        long twinId = callIds.getAsLong();
        CompletableFuture<WorkerRun> twin = jit.execute(twinId, request.withTimeout(left), tools);
        race.onLoss(Run.TWIN, () -> jit.cancel(twinId));
        twin.whenComplete((run, error) -> {
            pool.release(jit);
            race.finished(Run.TWIN, run == null ? null : run.startedAfter(secondsBefore, left, request.timeout()), error);
        });
        try {
            return race.answer().get();
        } catch (InterruptedException e) {
            jit.cancel(twinId);
            throw e;
        }
    }
}
