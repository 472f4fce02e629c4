package dev.pysandbox.supervisor;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.execution.Notice;

/**
 * A fixed number of worker slots: general ones, which serve every call, and optionally some for long calls
 * ({@link WorkerRole}). A worker is handed out to one call at a time; one that dies is replaced
 * in its slot in the background. The hot path is {@link #acquire} and {@link #release}: one monitor, a set of
 * idle workers, and a wait when none fits.
 */
final class WorkerPool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WorkerPool.class);
    /** Longest the next worker waits at start-up for the one before it to become ready. */
    private static final long STAGGER_LIMIT_MILLIS = 10_000;

    /** Thrown when the worker a call is pinned to is gone (its session is lost with it). */
    static final class WorkerGoneException extends Exception {
        WorkerGoneException(WorkerProcess worker) {
            this(worker.name());
        }

        WorkerGoneException(String what) {
            super(what + " is gone");
        }
    }

    private final WorkerStarter launcher;
    private final ScheduledExecutorService timers;
    private final Duration killGrace;
    private final Duration setupLimit;
    private final Consumer<WorkerProcess> onWorkerGone;
    private final Consumer<Notice> notices;
    private final int maxCallsPerWorker;
    private final List<WorkerSlot> slots;
    private final Set<WorkerProcess> idle = new LinkedHashSet<>();
    /** Workers ended so far, by why (the metrics' replacements); under the pool's lock. */
    private final Map<WorkerEndCause, Long> ended = new EnumMap<>(WorkerEndCause.class);
    /** Calls waiting in {@link #acquire} for a worker; under the pool's lock. */
    private int callsWaiting;
    /** The next slot to start for the first time; see {@link #startNext()}. */
    private int neverStarted;
    /** Whether that slot waits for the pool to be quiet or short of workers; see {@link #onReady}. */
    private boolean nextStartWaits;
    private boolean closed;

    /** @param longCallSlots slots of {@link WorkerRole#LONG_CALLS} beside the {@code size} general ones */
    WorkerPool(int size, int longCallSlots, int maxCallsPerWorker, WorkerStarter launcher, ScheduledExecutorService timers,
            Duration killGrace, Duration setupLimit, Consumer<WorkerProcess> onWorkerGone, Consumer<Notice> notices) {
        this.maxCallsPerWorker = maxCallsPerWorker;
        this.launcher = launcher;
        this.timers = timers;
        this.killGrace = killGrace;
        this.setupLimit = setupLimit;
        this.onWorkerGone = onWorkerGone;
        this.notices = notices;
        // General slots first: they start first, and the first call waits for none of the others.
        this.slots = Stream.concat(
                IntStream.range(0, size).mapToObj(index -> new WorkerSlot(index, WorkerRole.GENERAL)),
                IntStream.range(0, longCallSlots).mapToObj(index -> new WorkerSlot(index, WorkerRole.LONG_CALLS)))
                .toList();
    }

    /** Starts the slots' workers in the background, one after another, and returns at once. */
    void start() {
        startNext();
    }

    /**
     * Starts the first slot not started yet. Each slot starts after the one before it is ready ({@link #onReady}
     * says when), gone, or slow, not all at once: on a small machine JVMs starting together share the cores, and
     * the first call waits for all of them (measured on two cores: the first of two workers ready 4.5 s after launch when
     * both start at once, 2.2 s alone).
     */
    private void startNext() {
        WorkerSlot slot;
        synchronized (this) {
            nextStartWaits = false;
            if (closed || neverStarted >= slots.size()) {
                return;
            }
            slot = slots.get(neverStarted++);
        }
        timers.execute(() -> launch(slot));
        if (slots.indexOf(slot) + 1 < slots.size()) { // index counts within a role; the order is the list's
            // A worker that hangs while starting must not hold the others back.
            timers.schedule(this::startNext, STAGGER_LIMIT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Takes an idle worker: {@code required} if given (a session's worker), otherwise any.
     *
     * @param waiting run once, under the pool's lock, if the call has to wait for a worker
     * @return null if none became free within {@code maxWait}
     */
    WorkerProcess acquire(WorkerProcess required, Duration maxWait, Runnable waiting)
            throws InterruptedException, WorkerGoneException {
        return acquire(required, worker -> 0, maxWait, waiting);
    }

    /**
     * Like {@link #acquire(WorkerProcess, Duration, Runnable)}; without {@code required}, of the idle general
     * workers the one {@code rank} puts first (lowest), the first idle among equals.
     */
    synchronized WorkerProcess acquire(WorkerProcess required, ToIntFunction<WorkerProcess> rank, Duration maxWait,
            Runnable waiting) throws InterruptedException, WorkerGoneException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        boolean waited = false;
        try {
            while (!closed) {
                if (required != null) {
                    if (required.isGone()) {
                        throw new WorkerGoneException(required);
                    }
                    if (idle.remove(required)) {
                        return required;
                    }
                } else {
                    WorkerProcess worker = takeIdle(false, rank);
                    if (worker != null) {
                        return worker;
                    }
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return null;
                }
                if (!waited) {
                    waited = true;
                    callsWaiting++;
                    waiting.run();
                    if (nextStartWaits) {
                        startNext(); // a call is short of a worker: the next one starts now
                    }
                }
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            }
            return null;
        } finally {
            if (waited) {
                callsWaiting--;
            }
        }
    }

    /** An idle worker of a {@link WorkerRole#LONG_CALLS} slot, taken at once, or null when none is idle. */
    synchronized WorkerProcess tryAcquireForLongCall() {
        return closed ? null : takeIdle(true, worker -> 0);
    }

    /** Whether some slot is for long calls (whether or not its worker is up now). */
    boolean hasLongCallSlots() {
        return slots.stream().anyMatch(slot -> slot.role == WorkerRole.LONG_CALLS);
    }

    /** Takes the idle worker of the one role or the other that {@code rank} puts first; under the lock. */
    private WorkerProcess takeIdle(boolean forLongCalls, ToIntFunction<WorkerProcess> rank) {
        WorkerProcess best = null;
        int bestRank = Integer.MAX_VALUE;
        for (WorkerProcess worker : idle) {
            if (inLongCallSlot(worker) == forLongCalls) {
                int r = rank.applyAsInt(worker);
                if (r < bestRank) {
                    best = worker;
                    bestRank = r;
                }
            }
        }
        if (best != null) {
            idle.remove(best);
        }
        return best;
    }

    /** Whether the worker is that of a {@link WorkerRole#LONG_CALLS} slot (an idle worker is always in its slot). */
    synchronized boolean inLongCallSlot(WorkerProcess worker) {
        return slots.stream().anyMatch(slot -> slot.worker == worker && slot.role == WorkerRole.LONG_CALLS);
    }

    synchronized void release(WorkerProcess worker) {
        if (worker.callsServed() >= maxCallsPerWorker) {
            // Like a connection pool's maximum lifetime: whatever a long run of guests left behind in this
            // JVM (heap growth, caches, anything missed) goes with it.
            log.info("{} served {} calls; replacing it", worker.name(), worker.callsServed());
            worker.retire();
        } else if (worker.isReady()) {
            idle.add(worker);
            notifyAll();
            if (nextStartWaits && quiet()) {
                startNext(); // the pool is quiet: the next worker starts on cores no call wants
            }
        }
    }

    /** No call runs or waits for a worker; under the lock. */
    private boolean quiet() {
        return callsWaiting == 0 && slots.stream().noneMatch(slot -> slot.worker != null && slot.worker.isReady()
                && !idle.contains(slot.worker));
    }

    /**
     * Whether the pool serves calls: some general slot (a JIT worker for long calls takes no call of its own) has
     * a worker up, or is replacing one that was up and has not since failed to start. A routine replacement (a
     * crash, a runaway call, {@code worker.max-calls}) takes seconds and the next call just waits for it, so a
     * load balancer should not take the replica out for it; a slot whose worker cannot start does not count until
     * one starts.
     */
    synchronized boolean serving() {
        if (closed) {
            return false;
        }
        return slots.stream().anyMatch(slot -> slot.role == WorkerRole.GENERAL && slot.serving());
    }

    /** The slots by what their workers are doing now. */
    synchronized Map<WorkerState, Integer> states() {
        Map<WorkerState, Integer> states = new EnumMap<>(WorkerState.class);
        for (WorkerState state : WorkerState.values()) {
            states.put(state, 0);
        }
        for (WorkerSlot slot : slots) {
            WorkerProcess worker = slot.worker;
            WorkerState state = worker == null || !worker.isReady() ? WorkerState.STARTING
                    : idle.contains(worker) ? WorkerState.IDLE : WorkerState.BUSY;
            states.merge(state, 1, Integer::sum);
        }
        return states;
    }

    /** Workers ended since the pool started, by why; each was replaced (unless the pool was closing). */
    synchronized Map<WorkerEndCause, Long> ended() {
        Map<WorkerEndCause, Long> copy = new EnumMap<>(WorkerEndCause.class);
        for (WorkerEndCause cause : WorkerEndCause.values()) {
            copy.put(cause, ended.getOrDefault(cause, 0L));
        }
        return copy;
    }

    /** Calls waiting for a worker now. */
    synchronized int callsWaiting() {
        return callsWaiting;
    }

    /** The live workers. */
    synchronized List<WorkerProcess> workers() {
        List<WorkerProcess> live = new ArrayList<>();
        for (WorkerSlot slot : slots) {
            WorkerProcess worker = slot.worker;
            if (worker != null && !worker.isGone()) {
                live.add(worker);
            }
        }
        return live;
    }

    private void launch(WorkerSlot slot) {
        launch(slot, nextName(slot));
    }

    /** The name of the slot's next worker, or null once the pool is closed. */
    private synchronized String nextName(WorkerSlot slot) {
        return closed ? null : slot.nextName();
    }

    private void launch(WorkerSlot slot, String name) {
        if (name == null) {
            return;
        }
        try {
            Process process = launcher.launch(name, slot.role);
            WorkerProcess worker = new WorkerProcess(name, process, timers, killGrace, setupLimit,
                    launcher.answerBudget(), new WorkerProcess.Listener() {
                @Override
                public void ready(WorkerProcess w, String engine, boolean aotCache) {
                    launcher.checkEngine(slot.role, engine, aotCache);
                    onReady(slot, w);
                }

                @Override
                public void gone(WorkerProcess w) {
                    onGone(slot, w);
                }
            });
            boolean late;
            synchronized (this) {
                late = closed;
                if (!late) {
                    slot.worker = worker;
                }
            }
            if (late) {
                // Launched while the pool closed: close() could not see it, so it ends here.
                worker.kill();
                return;
            }
            worker.start(); // only now can it report ready or gone, and onGone can find it in its slot
            log.info("started {} (pid {})", name, process.pid());
        } catch (IOException e) {
            log.error("cannot start {}: {}", name, e.getMessage());
            scheduleRestart(slot);
        }
    }

    /**
     * A worker is up. The next slot starts now if the pool is quiet (no call running or about to take this worker)
     * or some call will still be waiting for a worker; otherwise it waits until the pool is quiet or a call waits
     * (or {@link #STAGGER_LIMIT_MILLIS} after this worker's launch). So the first call of a just-started server runs
     * on cores no starting JVM takes: on two cores the first {@code statistics.mean} took 2.3 s after its worker was
     * ready beside the second worker's start, and 1.3 s without it, in one launch each (BENCHMARKS.md, "First
     * call", which also says that launch to answer did not move beyond the machine's noise).
     */
    private void onReady(WorkerSlot slot, WorkerProcess worker) {
        boolean startNow;
        synchronized (this) {
            slot.restarts.succeeded();
            slot.upOnce = true;
            if (closed) {
                worker.stop();
                return;
            }
            idle.add(worker);
            notifyAll();
            int idleGeneral = (int) idle.stream().filter(w -> !inLongCallSlot(w)).count();
            startNow = quiet() || callsWaiting > idleGeneral;
            nextStartWaits = !startNow;
        }
        if (startNow) {
            startNext();
        }
    }

    private void onGone(WorkerSlot slot, WorkerProcess worker) {
        boolean neverReady;
        boolean failingAgain;
        synchronized (this) {
            idle.remove(worker);
            notifyAll();
            if (closed || slot.worker != worker) {
                return;
            }
            slot.worker = null;
            neverReady = !worker.isReadyOnce();
            WorkerProcess.Ending ending = worker.ending();
            ended.merge(ending == null ? WorkerEndCause.EXITED : ending.cause(), 1L, Long::sum);
            failingAgain = slot.restarts.failing();
        }
        onWorkerGone.accept(worker);
        if (neverReady) {
            log.error("{} exited before it was ready; see the lines above for its error output", worker.name());
            if (!failingAgain) {
                notices.accept(Notice.error("Sandbox worker " + worker.name() + " could not start; retrying."
                        + " Calls may fail until a worker is ready; the server log says why."));
            }
            scheduleRestart(slot);
            startNext();
        } else {
            String replacement = nextName(slot);
            WorkerProcess.Ending ending = worker.ending();
            if (ending != null && replacement != null) {
                notices.accept(new Notice(ending.level(), "Sandbox worker " + worker.name() + " " + ending.reason()
                        + "; " + replacement + " replaces it."));
            }
            try {
                timers.execute(() -> launch(slot, replacement));
            } catch (RejectedExecutionException e) {
                // The sandbox closed while this worker ended: there is nothing to replace it for.
            }
        }
    }

    /** Backs off so that a worker that cannot start does not become a fork loop. */
    private void scheduleRestart(WorkerSlot slot) {
        Duration delay;
        synchronized (this) {
            delay = slot.restarts.failed();
        }
        timers.schedule(() -> launch(slot), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Ends every worker and its process tree before it returns (stdin closed, then SIGTERM, then SIGKILL, about a
     * second at most): the server's exit comes next, and nothing would kill a worker later.
     */
    @Override
    public void close() {
        List<WorkerProcess> toStop;
        synchronized (this) {
            closed = true;
            toStop = workers();
            idle.clear();
            notifyAll();
        }
        WorkerProcess.endAll(toStop);
    }
}
