package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.config.LongCallSettings;
import dev.pysandbox.config.SessionSettings;
import dev.pysandbox.execution.CallPhase;
import dev.pysandbox.execution.CodeRequest;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.InspectionRequest;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.execution.SessionReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.supervisor.SessionRegistry.Session;
import dev.pysandbox.supervisor.SessionRegistry.SessionEndedException;

/**
 * The execution core as the rest of the server sees it: {@link #execute} takes a validated request and
 * always returns a result. Code never runs in this JVM: it goes to a worker from the pool, and the worker's
 * answer (or a deadline here) comes back.
 */
public final class Sandbox implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Sandbox.class);

    /** Limits of the execution core, from configuration. */
    public record Settings(int workers, int maxCallsPerWorker, Duration workerStartup, Duration killGrace,
            SessionSettings sessions, LongCallSettings longCalls) {
        /** Settings without JIT workers for long calls. */
        public Settings(int workers, int maxCallsPerWorker, Duration workerStartup, Duration killGrace,
                SessionSettings sessions) {
            this(workers, maxCallsPerWorker, workerStartup, killGrace, sessions, LongCallSettings.NONE);
        }
    }

    /** How many times in a row a session is rebuilt when the workers it is rebuilt on are lost to other calls. */
    private static final int MAX_REBUILDS = 3;
    /** How long {@code inspect_session} waits for a call running in the session. */
    static final Duration INSPECTION_WAIT = Duration.ofSeconds(10);
    /** How long the worker may take to look at a session's variables. */
    static final Duration INSPECTION_LIMIT = Duration.ofSeconds(20);

    private final Settings settings;
    private final ScheduledExecutorService timers;
    private final WorkerPool pool;
    private final LongCalls longCalls;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final SessionRegistry sessions;
    private final AtomicLong callIds = new AtomicLong();
    private final WorkerStarter launcher;
    /** Where the code's requests for the operator's other MCP tools go (code mode). */
    private final ToolBroker tools;
    /** The modules the server installs when code imports them missing: all an answer's {@code installing} may name. */
    private final Set<String> autoInstalled;
    /** Where notices go; set by {@link #start(Consumer)}, before any worker can produce one. */
    private volatile Consumer<Notice> notices = notice -> { };

    public Sandbox(Settings settings, WorkerLauncher launcher) {
        this(settings, launcher, ToolBroker.OFF);
    }

    /** @param tools answers the tool calls guest code makes (code mode); {@link ToolBroker#OFF} for none */
    public Sandbox(Settings settings, WorkerLauncher launcher, ToolBroker tools) {
        this(settings, (WorkerStarter) launcher, tools);
    }

    /** @param launcher starts the workers: worker JVMs, or in-memory workers in a unit test */
    Sandbox(Settings settings, WorkerStarter launcher, ToolBroker tools) {
        this.settings = settings;
        this.launcher = launcher;
        this.tools = tools;
        this.autoInstalled = Set.copyOf(launcher.autoInstalled());
        this.timers = Executors.newScheduledThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "sandbox-timers");
            thread.setDaemon(true);
            return thread;
        });
        this.sessions = new SessionRegistry(settings.sessions(), WorkerProcess::closeSession, this::publish);
        // A call that waits for a context (cold worker) is bounded by the worker start-up limit, not its timeout.
        int longCallWorkers = launcher.startsLongCallWorkers() ? settings.longCalls().workers() : 0;
        this.pool = new WorkerPool(settings.workers(), longCallWorkers, settings.maxCallsPerWorker(), launcher, timers,
                settings.killGrace(), settings.workerStartup(), sessions::workerGone, this::publish);
        this.longCalls = new LongCalls(pool, settings.longCalls().twinAfter(), callIds::incrementAndGet);
        long sweepMillis = Math.clamp(settings.sessions().idleTimeout().toMillis() / 4, 100, 30_000);
        timers.scheduleWithFixedDelay(sessions::expireIdle, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    }

    /** Starts the workers in the background; the server can answer clients while they warm up. */
    public Sandbox start() {
        return start(notice -> { });
    }

    /** Like {@link #start()}, telling {@code notices} what a client's user should know about the sandbox. */
    public Sandbox start(Consumer<Notice> notices) {
        this.notices = notices;
        // Never silently absent (SECURITY.md): whoever sends code is told when this wall is missing.
        launcher.osSandboxAbsence().ifPresent(why -> publish(Notice.warning("Workers run without the OS sandbox"
                + " layer (bubblewrap's network, file-system and PID isolation, and resource limits): " + why
                + ". Code still runs in locked-down interpreters in separate processes.")));
        log.info("starting {} worker(s)", settings.workers());
        pool.start();
        return this;
    }

    private void publish(Notice notice) {
        try {
            notices.accept(notice);
        } catch (RuntimeException e) {
            log.warn("could not pass on a notice: {}", e.toString());
        }
    }

    /**
     * Whether calls are served (readiness probes): a worker is up, or one that was up is being replaced. False
     * before the first worker starts and while no slot can start one.
     */
    public boolean ready() {
        return pool.serving();
    }

    /** What the supervisor is doing now, for the server's metrics. */
    public SandboxStatistics statistics() {
        long resident = 0;
        for (WorkerProcess worker : pool.workers()) {
            resident += worker.residentBytes();
        }
        return new SandboxStatistics(pool.states(), pool.callsWaiting(), pool.ended(), sessions.size(), sessions.ended(),
                resident);
    }

    /**
     * Runs the request and returns its result; never throws for anything the code does.
     *
     * @throws InterruptedException if the calling thread is interrupted (the client cancelled); the running
     *                              code is then stopped and its result discarded
     */
    public ExecutionResult execute(ExecutionRequest request) throws InterruptedException {
        return execute(request, null, phase -> { });
    }

    /**
     * Like {@link #execute(ExecutionRequest)}, for {@code principal}, telling {@code phases} where the call is
     * as it moves on. A validation, like a call without a session, runs in a fresh context.
     *
     * @param principal who calls: the HTTP principal, whose sessions count against its share of
     *                  {@code sessions.max} ({@code sessions.max-per-principal}); null for the one client over stdio
     */
    public ExecutionResult execute(CodeRequest request, String principal, Consumer<CallPhase> phases)
            throws InterruptedException {
        if (!(request instanceof ExecutionRequest execution) || execution.sessionId() == null) {
            try {
                return runOn(null, request, phases, false, false);
            } catch (WorkerPool.WorkerGoneException e) {
                throw new IllegalStateException("a call without a session is pinned to no worker", e);
            }
        }
        while (true) {
            Session session;
            try {
                session = sessions.open(principal, execution.sessionId(), execution.language());
            } catch (SessionEndedException e) {
                return ExecutionResult.sessionEnded(e.why, e.getMessage());
            }
            if (!session.lock.tryLock()) {
                phases.accept(CallPhase.WAITING_FOR_SESSION);
                session.lock.lockInterruptibly();
            }
            try {
                if (session.language != execution.language()) {
                    return ExecutionResult.setupError(otherLanguage(session, execution.language()));
                }
                // Evicted between open() and the lock: open again, which reports the eviction.
                if (sessions.isLive(session)) {
                    return inSession(session, execution.inSession(session.workerKey), phases);
                }
            } finally {
                sessions.touch(session);
                session.lock.unlock();
            }
        }
    }

    /**
     * Why a call may not run in a session of another language: the session's variables are that language's, and
     * it stays as it was.
     */
    static String otherLanguage(Session session, Language asked) {
        return "This session runs " + session.language.displayName() + ", and a session keeps the language of its"
                + " first call; this call is " + asked.displayName() + ". Use another session_id for "
                + asked.displayName() + " (the session is unchanged).";
    }

    /**
     * What a session holds and costs ({@code inspect_session}), running none of its code. Waits for a call
     * running in the session to end, up to {@link #INSPECTION_WAIT}; does not count as a use of the session (it
     * expires as if nobody had looked).
     *
     * @param sessionKey the session as the sandbox names it (over HTTP the principal is part of it)
     * @param shownId    the id as its caller named it
     */
    public SessionReport inspect(String sessionKey, String shownId) throws InterruptedException {
        Session session = sessions.find(sessionKey);
        if (session == null) {
            return sessions.endingOf(sessionKey, shownId);
        }
        if (!session.lock.tryLock(INSPECTION_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            return report(session, shownId, SessionReport.State.LIVE, "A call has been running in this session for "
                    + "over " + INSPECTION_WAIT.toSeconds() + " s; look again when it has ended.", null);
        }
        try {
            if (!sessions.isLive(session)) {
                return sessions.endingOf(sessionKey, shownId);
            }
            if (session.displaced || session.worker == null) {
                return report(session, shownId, SessionReport.State.REBUILDING, "Its worker was lost to another call"
                        + " or replaced; its next call rebuilds it by running its calls again.", null);
            }
            ExecutionResult looked;
            try {
                looked = runOn(session, new InspectionRequest(session.workerKey, INSPECTION_LIMIT), phase -> { }, false,
                        false);
            } catch (WorkerPool.WorkerGoneException e) {
                return report(session, shownId, SessionReport.State.REBUILDING, "Its worker has just stopped; its next"
                        + " call rebuilds it by running its calls again.", null);
            }
            return looked.status() == Status.SUCCESS && looked.result() instanceof Map<?, ?> state
                    ? report(session, shownId, SessionReport.State.LIVE, null, state)
                    : report(session, shownId, SessionReport.State.LIVE, looked.errorMessage(), null);
        } finally {
            session.lock.unlock();
        }
    }

    /** A live session's report; its variables and heap from the worker's {@code state}, when it could look. */
    private SessionReport report(Session session, String shownId, SessionReport.State state, String message,
            Map<?, ?> looked) {
        long now = System.nanoTime();
        String refusal = session.journal.refusal();
        Map<String, Object> memory = new LinkedHashMap<>();
        List<Map<String, Object>> variables = null;
        Integer omitted = null;
        if (looked != null) {
            variables = new ArrayList<>();
            if (looked.get("variables") instanceof List<?> listed) {
                for (Object entry : listed) {
                    if (entry instanceof Map<?, ?> variable) {
                        Map<String, Object> copy = new LinkedHashMap<>();
                        variable.forEach((key, value) -> copy.put(String.valueOf(key), value));
                        variables.add(copy);
                    }
                }
            }
            omitted = looked.get("variables_omitted") instanceof Number n ? n.intValue() : 0;
            memory.put("variables_bytes", looked.get("size_bytes"));
        }
        memory.put("rebuild_bytes", session.journal.bytes());
        if (looked != null) {
            memory.put("worker_heap_used_bytes", looked.get("worker_heap_used_bytes"));
            memory.put("worker_heap_max_bytes", looked.get("worker_heap_max_bytes"));
        }
        return new SessionReport(shownId, state, null, message, seconds(now - session.openedNanos),
                seconds(now - session.lastUsedNanos), session.calls, refusal == null, refusal, variables, omitted,
                memory);
    }

    private static double seconds(long nanos) {
        return Math.round(nanos / 1e7) / 100.0;
    }

    /**
     * Runs a call in its session, under the session's lock: first rebuilding the session if its worker was lost to
     * another call (or replaced), so that a session is lost only through its own calls.
     */
    private ExecutionResult inSession(Session session, ExecutionRequest request, Consumer<CallPhase> phases)
            throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            WorkerProcess held = session.worker;
            if (held != null && held.isGone()) {
                sessions.workerGone(held); // the pool may not have said so yet
            }
            if (!sessions.isLive(session)) {
                return sessions.takeEnding(session);
            }
            try {
                if (!session.displaced) {
                    WorkerProcess jit = longCalls.jitWorkerFor(session, sessions::hasRoom);
                    ExecutionResult there = jit == null ? null : movedThenRun(session, jit, request, phases);
                    return there != null ? there : runOn(session, request, phases, true, false);
                }
                // The rebuild and the call hold their worker from the first call run again to the answer: a call
                // of someone else's in between could cost the worker and undo the rebuild.
                WorkerProcess worker = acquire(session, phases, true);
                if (worker == null) {
                    return noWorker();
                }
                Rebuild rebuild = rebuild(session, worker, phases);
                if (rebuild.failure() != null) {
                    pool.release(worker);
                    return rebuild.failure();
                }
                return runHeld(worker, session, request, phases, true, true, rebuild.calls());
            } catch (WorkerPool.WorkerGoneException e) {
                // Its worker was lost to another call between two of its calls (those of a rebuild too): the next
                // round marks it displaced and rebuilds it again from the start.
                if (attempt == MAX_REBUILDS) {
                    return sessions.notRebuilt(session, "its workers were lost to other calls " + MAX_REBUILDS
                            + " times in a row while it was rebuilt");
                }
            }
        }
    }

    /**
     * Which idle worker a call not pinned to one takes, so that what costs a worker costs as few sessions as can
     * be: a call without a session takes one that holds none if one is idle; a session's first call takes one that
     * holds sessions of its principal only, then one that holds none, so that sessions pack onto few workers, and
     * different principals' onto different ones, while workers are free.
     */
    private ToIntFunction<WorkerProcess> placement(Session session) {
        if (session == null) {
            return worker -> sessions.holdsAny(worker) ? 1 : 0;
        }
        return worker -> switch (sessions.holders(worker, session.principal)) {
            case ONLY_THIS_PRINCIPAL -> 0;
            case NONE -> 1;
            case OTHERS -> 2;
        };
    }

    /** How a rebuild went: the calls run again, or the answer for a session that could not be rebuilt. */
    private record Rebuild(int calls, ExecutionResult failure) {
    }

    /**
     * Runs a displaced session's calls again, in order, on {@code worker}, which the caller holds and the session is
     * bound to, each required to end as it ended before (BENCHMARKS.md, "Sessions that last"). Their output is
     * dropped. A session whose calls cannot be run again ended when its worker went
     * ({@link SessionRegistry#workerGone}).
     */
    private Rebuild rebuild(Session session, WorkerProcess worker, Consumer<CallPhase> phases)
            throws InterruptedException {
        List<SessionJournal.Entry> entries = session.journal.entries();
        log.info("rebuilding session {} on {}: {} call(s) to run again", session.id, worker.name(), entries.size());
        for (int i = 0; i < entries.size(); i++) {
            SessionJournal.Entry entry = entries.get(i);
            ExecutionResult again = runHeld(worker, session, entry.request().withoutTools(), phases, false, false, 0);
            if (!sessions.isLive(session)) { // running its own calls again cost the new worker too
                return new Rebuild(i, sessions.takeEnding(session));
            }
            if (worker.isGone()) { // it died under the session's own call, and nothing else ran on it
                return new Rebuild(i, sessions.notRebuilt(session, "its new worker stopped while its calls ran again"));
            }
            if (again.status() != entry.status()) {
                return new Rebuild(i, sessions.notRebuilt(session, "its call " + (i + 1) + " of " + entries.size()
                        + " ended with " + again.status().wireName() + " when run again, where it had ended with "
                        + entry.status().wireName()));
            }
        }
        return new Rebuild(entries.size(), null);
    }

    /**
     * Rebuilds a session that computes on {@code jit}, the JIT worker the caller holds for it
     * ({@link LongCalls#jitWorkerFor}), and runs its call there. Null, having given {@code jit} back, when a call run
     * again there ended or printed otherwise than before (values made from chance or the clock): the session was
     * not lost, so it is not remade different, and stays where it is, as it was, for good.
     */
    private ExecutionResult movedThenRun(Session session, WorkerProcess jit, ExecutionRequest request,
            Consumer<CallPhase> phases) throws InterruptedException {
        List<SessionJournal.Entry> entries = session.journal.entries();
        String from = session.worker == null ? "its lost worker" : session.worker.name();
        log.info("session {} computes: moving it from {} to {} by running its {} call(s) again", session.id, from,
                jit.name(), entries.size());
        for (int i = 0; i < entries.size(); i++) {
            SessionJournal.Entry entry = entries.get(i);
            ExecutionResult again;
            try {
                again = runHeld(jit, null, entry.request().withoutTools(), phases, false, false, 0);
            } catch (InterruptedException e) {
                stayPut(session, jit); // runHeld gives jit back once the cancelled run has ended
                throw e;
            }
            if (jit.isGone() || again.status() != entry.status() || !entry.printsAsBefore(again.stdout())) {
                log.info("session {} stays on {}: its call {} of {} ran otherwise on {}", session.id, from, i + 1,
                        entries.size(), jit.name());
                stayPut(session, jit);
                pool.release(jit);
                return null;
            }
        }
        sessions.moved(session, jit);
        return runHeld(jit, session, request, phases, true, true, entries.size());
    }

    /** A session's move to {@code jit} failed: what was rebuilt there goes, and it never tries again. */
    private static void stayPut(Session session, WorkerProcess jit) {
        session.staysPut = true;
        if (!jit.isGone()) {
            jit.closeSession(session.workerKey);
        }
    }

    /**
     * Runs one call on a worker: the session's, or any for a call without one (or a session's first call, which
     * binds it there).
     *
     * @param journal    whether a session call is one of its own, to keep for a rebuild (not one run again)
     * @param rebuilding see {@link #acquire}
     * @throws WorkerPool.WorkerGoneException if the session's worker is gone before the call could start
     */
    private ExecutionResult runOn(Session session, CodeRequest request, Consumer<CallPhase> phases, boolean journal,
            boolean rebuilding) throws InterruptedException, WorkerPool.WorkerGoneException {
        WorkerProcess worker = acquire(session, phases, rebuilding);
        return worker == null ? noWorker() : runHeld(worker, session, request, phases, journal, true, 0);
    }

    /**
     * Takes a worker for a call: the session's, or one {@link #placement} picks, binding a session without one to it;
     * null, having forgotten a session never bound, when none became free in time. Only a session that has not run
     * yet, or one being rebuilt ({@code rebuilding}), may be bound to a new worker: any other call needs the state
     * its session's earlier calls made, and finds its worker gone instead.
     */
    private WorkerProcess acquire(Session session, Consumer<CallPhase> phases, boolean rebuilding)
            throws InterruptedException, WorkerPool.WorkerGoneException {
        WorkerProcess required = session == null ? null : session.worker;
        if (session != null && required == null && !rebuilding && session.calls > 0) {
            throw new WorkerPool.WorkerGoneException("the worker of session " + session.id);
        }
        WorkerProcess worker = pool.acquire(required, placement(session),
                settings.workerStartup(), () -> phases.accept(CallPhase.WAITING_FOR_WORKER));
        if (worker == null) {
            if (session != null) {
                sessions.discardUnbound(session);
            }
            return null;
        }
        if (session != null && session.worker == null) {
            sessions.bind(session, worker);
        }
        return worker;
    }

    private ExecutionResult noWorker() {
        return ExecutionResult.setupError("No sandbox worker became available within "
                + settings.workerStartup().toSeconds() + " seconds; the server log says why. Please retry.");
    }

    /**
     * Runs one call on a worker the caller holds, and answers it.
     *
     * @param release whether the worker goes back to the pool when it has answered (even if our caller stopped
     *                waiting); without it the caller keeps it for its next call, and gives it back itself
     * @param rebuilt how many of the session's earlier calls were run again before this one; 0 for none
     */
    private ExecutionResult runHeld(WorkerProcess worker, Session session, CodeRequest request,
            Consumer<CallPhase> phases, boolean journal, boolean release, int rebuilt) throws InterruptedException {
        // A session that never ran here is told so (session_new), which behind a load balancer is how a session
        // moved to another replica shows; one rebuilt on a new worker has run before.
        boolean started = session != null && session.calls == 0;
        phases.accept(CallPhase.RUNNING);
        long id = callIds.incrementAndGet();
        long sent = System.nanoTime();
        Supplier<ToolCalls> openTools = () -> new FirstToolCall(tools.open(request.tools()),
                () -> phases.accept(CallPhase.CALLED_A_TOOL));
        TwinRace race = request instanceof ExecutionRequest execution ? longCalls.raceFor(execution) : null;
        ToolCalls toolCalls = race == null ? openTools.get() : race.gate(TwinRace.Run.FIRST, openTools.get());
        CompletableFuture<WorkerRun> answer = worker.execute(id, request, toolCalls);
        if (release) {
            answer.whenComplete((run, error) -> pool.release(worker));
        }
        WorkerRun run;
        try {
            // A twin is cancelled on its JIT worker by LongCalls, the first run here on its own worker; when the
            // twin had won, that worker has had a cancel already, and a second one is harmless.
            run = race != null
                    ? longCalls.await(worker, id, (ExecutionRequest) request, race,
                            () -> race.gate(TwinRace.Run.TWIN, openTools.get()), sent, answer)
                    : answer.get();
        } catch (InterruptedException e) {
            worker.cancel(id);
            if (!release) {
                answer.whenComplete((done, error) -> pool.release(worker)); // nobody will give it back now
            }
            throw e;
        } catch (ExecutionException e) {
            log.error("call {} failed inside the supervisor", id, e.getCause());
            return ExecutionResult.setupError("The sandbox failed to run this call; please retry.");
        }
        if (session == null) {
            return answer(run).build();
        }
        if (worker.lostTo(id)) {
            sessions.lostToItsOwnCall(session, worker);
        } else if (journal && request instanceof ExecutionRequest execution) {
            session.journal.record(execution, run);
        }
        if (journal) {
            session.calls++;
            longCalls.ended(session, System.nanoTime() - sent);
        }
        return answer(run).sessionNew(started).sessionRebuilt(rebuilt).build();
    }

    /**
     * The call's answer, which {@link #runHeld} builds once: what its worker reported, and what only the supervisor
     * knows of it, the tool calls it recorded and which of the modules the code found missing the server installs
     * (a call with a session adds the session's fields). A worker's report carries none of these: a worker runs
     * guest code, and could otherwise tell a client that its session ended or was rebuilt (SECURITY.md, "Worker
     * processes").
     */
    private ExecutionResult.Builder answer(WorkerRun run) {
        return ExecutionResult.from(run.report())
                .toolCalls(run.toolCalls(), run.toolCallsOmitted())
                .installing(run.report().missingModules().stream().filter(autoInstalled::contains).toList());
    }

    /**
     * Stops the workers and returns when their processes are gone, a few seconds at most. Every caller waits
     * (remote mode's graceful stop and the shutdown hook may both call it, and the JVM ends when the hook
     * returns); a later call finds nothing left to stop.
     */
    @Override
    public void close() {
        pool.close();
        if (closed.compareAndSet(false, true)) {
            timers.shutdown();
        }
    }
}
