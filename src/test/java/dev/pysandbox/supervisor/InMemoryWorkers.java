package dev.pysandbox.supervisor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.supervisor.InMemoryWorker.Startup;

/**
 * Starts {@link InMemoryWorker}s in place of worker JVMs: the supervisor's rules run against them in milliseconds,
 * as a connection pool is tested against stub connections. Each worker starts as told: the next ones in the order
 * given by {@link #thenStart}, the rest as the default.
 */
final class InMemoryWorkers implements WorkerStarter {
    /** A budget large enough for every answer the in-memory workers give. */
    static final AnswerBudget BUDGET = AnswerBudget.of(64 * 1024, 64 * 1024);

    private final Deque<Startup> next = new ArrayDeque<>();
    private Startup otherwise;
    private final List<InMemoryWorker> launched = new ArrayList<>();
    private List<String> autoInstalled = List.of();

    InMemoryWorkers(Startup otherwise) {
        this.otherwise = otherwise;
    }

    /** The next workers start so, in this order; those after them as the default. */
    synchronized InMemoryWorkers thenStart(Startup... startups) {
        next.addAll(List.of(startups));
        return this;
    }

    /** The server installs these modules when code imports them missing (packages.auto-install). */
    synchronized InMemoryWorkers autoInstalling(String... modules) {
        autoInstalled = List.of(modules);
        return this;
    }

    /** From now on, workers start so unless {@link #thenStart} said otherwise. */
    synchronized void startFromNowOn(Startup startup) {
        otherwise = startup;
    }

    @Override
    public synchronized Process launch(String workerName, WorkerRole role) {
        Startup startup = next.isEmpty() ? otherwise : next.removeFirst();
        InMemoryWorker worker = new InMemoryWorker(workerName, startup);
        launched.add(worker);
        notifyAll();
        return worker;
    }

    /** The workers started so far, oldest first. */
    synchronized List<String> launchedNames() {
        return launched.stream().map(InMemoryWorker::name).toList();
    }

    /** The worker started with this name, waiting for its start (30 s at most, a guard against a hang). */
    synchronized InMemoryWorker awaitLaunched(String workerName) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            for (InMemoryWorker worker : launched) {
                if (worker.name().equals(workerName)) {
                    return worker;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(workerName + " was not started; started: " + launchedNames());
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    @Override
    public AnswerBudget answerBudget() {
        return BUDGET;
    }

    @Override
    public synchronized List<String> autoInstalled() {
        return autoInstalled;
    }

    @Override
    public boolean startsLongCallWorkers() {
        return true;
    }

    @Override
    public void checkEngine(WorkerRole role, String engine, boolean aotCache) {
        // In-memory workers have no engine to check.
    }

    @Override
    public Optional<String> osSandboxAbsence() {
        return Optional.empty();
    }
}
