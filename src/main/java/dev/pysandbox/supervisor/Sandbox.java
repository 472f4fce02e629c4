package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.config.LongCallSettings;
import dev.pysandbox.execution.CallPhase;
import dev.pysandbox.execution.CodeRequest;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
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
            int maxSessions, int sessionsPerPrincipal, int sessionsPerWorker, Duration sessionIdleTimeout,
            LongCallSettings longCalls) {
        /** Settings without JIT workers for long calls. */
        public Settings(int workers, int maxCallsPerWorker, Duration workerStartup, Duration killGrace,
                int maxSessions, int sessionsPerPrincipal, int sessionsPerWorker, Duration sessionIdleTimeout) {
            this(workers, maxCallsPerWorker, workerStartup, killGrace, maxSessions, sessionsPerPrincipal,
                    sessionsPerWorker, sessionIdleTimeout, LongCallSettings.NONE);
        }
    }

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
        this.timers = Executors.newScheduledThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "sandbox-timers");
            thread.setDaemon(true);
            return thread;
        });
        this.sessions = new SessionRegistry(settings.maxSessions(), settings.sessionsPerPrincipal(),
                settings.sessionsPerWorker(), settings.sessionIdleTimeout(), WorkerProcess::closeSession, this::publish);
        // A call that waits for a context (cold worker) is bounded by the worker start-up limit, not its timeout.
        int longCallWorkers = launcher.startsLongCallWorkers() ? settings.longCalls().workers() : 0;
        this.pool = new WorkerPool(settings.workers(), longCallWorkers, settings.maxCallsPerWorker(), launcher, timers,
                settings.killGrace(), settings.workerStartup(), sessions::workerGone, this::publish);
        this.longCalls = new LongCalls(pool, settings.longCalls().moveAfter(), tools, callIds::incrementAndGet);
        long sweepMillis = Math.clamp(settings.sessionIdleTimeout().toMillis() / 4, 100, 30_000);
        timers.scheduleWithFixedDelay(sessions::expireIdle, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    }

    /** Starts the workers in the background; the server can answer clients while they warm up. */
    public Sandbox start() {
        return start(notice -> { });
    }

    /** Like {@link #start()}, telling {@code notices} what a client's user should know about the sandbox. */
    public Sandbox start(Consumer<Notice> notices) {
        this.notices = notices;
        List<String> missing = launcher.osSandboxMissing();
        if (!missing.isEmpty()) {
            publish(Notice.warning("The OS sandbox layer for workers is incomplete on this machine (missing: "
                    + String.join("; ", missing) + "). Code still runs in locked-down interpreters in separate"
                    + " processes; the operator can install the missing tools."));
        }
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
            return runOn(null, request, phases);
        }
        while (true) {
            Session session;
            try {
                session = sessions.open(principal, execution.sessionId());
            } catch (SessionEndedException e) {
                return ExecutionResult.setupError(e.getMessage());
            }
            if (!session.lock.tryLock()) {
                phases.accept(CallPhase.WAITING_FOR_SESSION);
                session.lock.lockInterruptibly();
            }
            try {
                // Evicted between open() and the lock: open again, which reports the eviction.
                if (sessions.isLive(session)) {
                    return runOn(session, execution.inSession(session.workerKey), phases);
                }
            } finally {
                sessions.touch(session);
                session.lock.unlock();
            }
        }
    }

    private ExecutionResult runOn(Session session, CodeRequest request, Consumer<CallPhase> phases)
            throws InterruptedException {
        WorkerProcess worker;
        try {
            worker = pool.acquire(session == null ? null : session.worker, settings.workerStartup(),
                    () -> phases.accept(CallPhase.WAITING_FOR_WORKER));
        } catch (WorkerPool.WorkerGoneException e) {
            return ExecutionResult.setupError(sessions.reportLost(session));
        }
        if (worker == null) {
            if (session != null) {
                sessions.discardUnbound(session);
            }
            return ExecutionResult.setupError("No sandbox worker became available within "
                    + settings.workerStartup().toSeconds() + " seconds; the server log says why. Please retry.");
        }
        // A session not yet bound to a worker has never run here: its caller is told so (session_new), which
        // behind a load balancer is how a session moved to another replica shows.
        boolean started = session != null && session.worker == null;
        if (started) {
            sessions.bind(session, worker);
        }
        phases.accept(CallPhase.RUNNING);
        long id = callIds.incrementAndGet();
        long sent = System.nanoTime();
        ToolCalls toolCalls = tools.open(request.tools());
        CompletableFuture<ExecutionResult> answer = worker.execute(id, request, toolCalls);
        // The worker goes back to the pool only when it has answered, even if our caller stopped waiting.
        answer.whenComplete((result, error) -> pool.release(worker));
        try {
            // A call that moved is cancelled on its JIT worker by LongCalls; the one below, for where it started,
            // then repeats a cancel that worker has had, which is harmless.
            ExecutionResult result = request instanceof ExecutionRequest execution && longCalls.mayMove(execution)
                    ? longCalls.await(worker, id, execution, toolCalls, sent, answer)
                    : answer.get();
            return session == null ? result : result.withSessionNew(started);
        } catch (InterruptedException e) {
            worker.cancel(id);
            throw e;
        } catch (ExecutionException e) {
            log.error("call {} failed inside the supervisor", id, e.getCause());
            return ExecutionResult.setupError("The sandbox failed to run this call; please retry.");
        }
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
