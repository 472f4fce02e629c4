package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.execution.ToolBroker.ToolCalls;

/**
 * Moves a call that outruns the interpreter to an idle JIT worker ({@link WorkerRole#LONG_CALLS}): once it has
 * run {@code moveAfter} on its general worker, it is cancelled there and starts again on the JIT worker, with
 * the time its timeout leaves. Long CPU-bound code then runs at about CPython's speed instead of an order of
 * magnitude slower (BENCHMARKS.md, "Long calls move to a JIT worker").
 *
 * <p>Only a call that nothing outside its context can tell apart from a fresh start may move: no session (its
 * state lives in its worker) and no tool calls made (they act on the operator's other servers; a second run would
 * repeat them), which {@link ToolCalls#endIfUnused} decides at the moment of the move, so that none can start
 * after it. Its output so far is discarded with the context it ran in.
 */
final class LongCalls {
    private static final Logger log = LoggerFactory.getLogger(LongCalls.class);
    /** Below this much time left, a move would cost more than it could win: the call stays. */
    static final Duration LEAST_TIME_LEFT = Duration.ofSeconds(1);
    /** How often a call past {@code moveAfter} looks again for an idle JIT worker. */
    private static final long RETRY_MILLIS = 250;

    private final WorkerPool pool;
    private final Duration moveAfter;
    private final ToolBroker tools;
    private final LongSupplier callIds;

    LongCalls(WorkerPool pool, Duration moveAfter, ToolBroker tools, LongSupplier callIds) {
        this.pool = pool;
        this.moveAfter = moveAfter;
        this.tools = tools;
        this.callIds = callIds;
    }

    /** Whether this request may move (see the class comment), given that the pool has somewhere to move it. */
    boolean mayMove(ExecutionRequest request) {
        return request.sessionId() == null && pool.hasLongCallSlots();
    }

    /**
     * How call {@code id}, sent to {@code worker} at {@code sentNanos}, ran: on that worker, or on a JIT worker if
     * the call moved.
     *
     * @throws InterruptedException if the caller stopped waiting: a moved call is cancelled here, one that did not
     *                              move is the caller's to cancel on {@code worker}
     */
    WorkerRun await(WorkerProcess worker, long id, ExecutionRequest request, ToolCalls toolCalls, long sentNanos,
            CompletableFuture<WorkerRun> answer) throws InterruptedException, ExecutionException {
        long moveAt = sentNanos + moveAfter.toNanos();
        while (true) {
            try {
                return answer.get(Math.max(0, moveAt - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // still running: move it if there is time and a JIT worker
            }
            long ranNanos = System.nanoTime() - sentNanos;
            Duration left = request.timeout().minusNanos(ranNanos);
            if (left.compareTo(LEAST_TIME_LEFT) < 0) {
                return answer.get();
            }
            WorkerProcess jit = pool.tryAcquireForLongCall();
            if (jit == null) {
                moveAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
                continue;
            }
            if (answer.isDone() || !toolCalls.endIfUnused()) { // finished meanwhile, or it reached another server
                pool.release(jit);
                return answer.get();
            }
            // Its worker answers the cancel in its own time and goes back to the pool then (Sandbox.runOn).
            worker.cancel(id);
            log.info("call {} ran {} ms on {}; moving it to {}", id, ranNanos / 1_000_000, worker.name(), jit.name());
            return runMoved(jit, request, left, ranNanos / 1e9);
        }
    }

    /** Runs the request again on {@code jit} within {@code left}; its report counts the time it ran before. */
    private WorkerRun runMoved(WorkerProcess jit, ExecutionRequest request, Duration left, double secondsBefore)
            throws InterruptedException, ExecutionException {
        long id = callIds.getAsLong();
        ExecutionRequest moved = request.withTimeout(left);
        CompletableFuture<WorkerRun> answer = jit.execute(id, moved, tools.open(moved.tools()));
        answer.whenComplete((result, error) -> pool.release(jit));
        try {
            return answer.get().movedAfter(secondsBefore, left, request.timeout());
        } catch (InterruptedException e) {
            jit.cancel(id);
            throw e;
        }
    }
}
