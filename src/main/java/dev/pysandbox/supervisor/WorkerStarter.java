package dev.pysandbox.supervisor;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import dev.pysandbox.execution.AnswerBudget;

/**
 * Starts the workers the pool hands calls to. This is where the supervisor meets processes: {@link WorkerLauncher}
 * starts worker JVMs, and a unit test starts in-memory workers that speak the same protocol over the same
 * streams, so that {@link WorkerProcess}'s protocol code and the rules of {@link WorkerPool} and {@link Sandbox}
 * are exercised as they are, in milliseconds.
 *
 * <p>A worker is a {@link Process}: its stdin takes commands and its stdout gives events, one JSON line each
 * ({@link dev.pysandbox.wire.WireCodec}); its stderr carries the worker's notices; it is ended by closing its
 * stdin, and killed with its descendants ({@link dev.pysandbox.process.ProcessTree}).
 */
interface WorkerStarter {
    /** Starts the worker named {@code workerName} (slot, then generation: {@code worker-1.2}) for {@code role}. */
    Process launch(String workerName, WorkerRole role) throws IOException;

    /**
     * Whether workers for {@link WorkerRole#LONG_CALLS} can be started: a JIT runtime is prepared and the general
     * workers run without the JIT.
     */
    boolean startsLongCallWorkers();

    /** What a worker's reports may carry; the supervisor holds each report to it, trusting no worker. */
    AnswerBudget answerBudget();

    /**
     * The modules the server installs when code imports them missing ({@code packages.auto-install}), as the workers
     * are told: the only ones an answer's {@code installing} names, whatever a worker reports.
     */
    List<String> autoInstalled();

    /**
     * Told what a worker that became ready runs on, so that a worker started without the JIT or without its
     * AOT cache is reported.
     */
    void checkEngine(WorkerRole role, String engine, boolean aotCache);

    /** Why workers run without the OS layer, in words for a client (no host paths); empty when they run inside it. */
    Optional<String> osSandboxAbsence();
}
