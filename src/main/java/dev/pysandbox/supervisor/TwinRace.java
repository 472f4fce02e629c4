package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.execution.ToolReply;

/**
 * One call running twice at once: where it started, and as a twin on a JIT worker ({@link LongCalls}). One run
 * owns the call, and only its answer is the call's: the first to finish (the twin not with an error), or the
 * first to call one of the operator's tools, whichever comes first. The other is cancelled at that moment, and its
 * answer, when it comes, is dropped.
 *
 * <p>Why a tool call decides too: the twin must never be seen from outside the call's own context. A call of a
 * tool acts on another server, so it goes out only from the run that owns the call, which the other run then can
 * never become; a run that has lost is refused any call. Listing, searching and describing tools act on nothing,
 * and both runs may do them.
 */
final class TwinRace {
    /** The two runs of the call. */
    enum Run {
        /** Where the call started, on an interpreter-only worker. */
        FIRST,
        /** The same request on a JIT worker, started while the first still runs. */
        TWIN;

        Run other() {
            return this == FIRST ? TWIN : FIRST;
        }
    }

    private final CompletableFuture<WorkerRun> answer = new CompletableFuture<>();
    /** The run whose answer is the call's; null while neither has finished or called a tool. Guarded by this. */
    private Run owner;
    /** How to stop each run when the other owns the call. Guarded by this. */
    private final Map<Run, Runnable> cancels = new EnumMap<>(Run.class);

    /** The call's answer: that of the run that owns it, when that run ends. */
    CompletableFuture<WorkerRun> answer() {
        return answer;
    }

    /**
     * Whether a twin may start now: no run owns the call yet. After this said yes, the twin's {@link #onLoss} must
     * follow, so that a first run that finishes meanwhile stops the twin at once.
     */
    synchronized boolean openForTwin() {
        return owner == null;
    }

    /** How to stop {@code run} once the other owns the call; run at once if it already does. */
    void onLoss(Run run, Runnable cancel) {
        synchronized (this) {
            if (owner == null || owner == run) {
                cancels.put(run, cancel);
                return;
            }
        }
        cancel.run();
    }

    /**
     * {@code run} ended with {@code result} (or failed inside the supervisor): the call's answer, if it owns the call.
     * A twin that failed withdraws instead, unless it owns the call already: it runs on another GraalPy (README,
     * "Both, with twins of long calls": 25.0.3 has no XML parser, for one), so its error says nothing of how the
     * first run, still going, will end. A twin's timeout does count: both runs end at the call's deadline.
     */
    void finished(Run run, WorkerRun result, Throwable error) {
        boolean failed = error != null
                || result.report().status() != Status.SUCCESS && result.report().status() != Status.TIMEOUT;
        if (run == Run.TWIN && failed && withdraw(Run.TWIN)) {
            return;
        }
        if (!claim(run)) {
            return; // it lost, and was cancelled when it did
        }
        if (error != null) {
            answer.completeExceptionally(error);
        } else {
            answer.complete(result);
        }
    }

    /** Takes {@code run} out of the race unless it owns the call: it has ended, and needs no cancel. */
    private synchronized boolean withdraw(Run run) {
        if (owner == run) {
            return false;
        }
        cancels.remove(run);
        return true;
    }

    /** Gives {@code run} the call if nobody owns it, cancelling the other; whether {@code run} owns it now. */
    private boolean claim(Run run) {
        Runnable cancel;
        synchronized (this) {
            if (owner != null) {
                return owner == run;
            }
            owner = run;
            cancel = cancels.remove(run.other());
        }
        if (cancel != null) {
            cancel.run();
        }
        return true;
    }

    /** {@code calls} for {@code run}: a call of a tool goes out only if {@code run} owns the call, or takes it now. */
    ToolCalls gate(Run run, ToolCalls calls) {
        return new ForwardingToolCalls(calls) {
            @Override
            public String handle(ToolOp op, String tool, String params, Duration remaining) {
                if ((op == ToolOp.CALL || op == ToolOp.CALL_RAW) && !claim(run)) {
                    return ToolReply.failed(ToolErrorKind.NOT_CONFIGURED, "this call has ended").json();
                }
                return super.handle(op, tool, params, remaining);
            }
        };
    }
}
