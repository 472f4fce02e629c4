package dev.pysandbox.supervisor;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.CodeRequest;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.InspectionRequest;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ValidationRequest;
import dev.pysandbox.process.ProcessTree;
import dev.pysandbox.wire.BoundedLineReader;
import dev.pysandbox.wire.Decoded;
import dev.pysandbox.wire.WireCodec;
import dev.pysandbox.wire.WorkerCommand;
import dev.pysandbox.wire.WorkerEvent;

/**
 * The supervisor's handle on one worker JVM: sends commands, turns events into completed calls, and enforces
 * the last line of the timeout: if a call is not answered by its deadline plus a grace period, the process is
 * killed and the call answered here. Every path ends in exactly one answer per call.
 */
final class WorkerProcess {
    private static final Logger log = LoggerFactory.getLogger(WorkerProcess.class);

    /** Told when this worker can take calls, and when it is gone for good. */
    interface Listener {
        /**
         * @param engine   the Truffle runtime the worker's Python runs on
         * @param aotCache whether the worker's JVM mapped an AOT cache
         */
        void ready(WorkerProcess worker, String engine, boolean aotCache);

        void gone(WorkerProcess worker);
    }

    /** Why a worker ended, told to the client as a notice of its cause's level (see {@link #ending()}). */
    record Ending(WorkerEndCause cause, String reason) {
        Notice.Level level() {
            return cause.level();
        }
    }

    /** What -XX:+ExitOnOutOfMemoryError exits with; see WorkerLauncher. */
    static final int OUT_OF_MEMORY_EXIT = 3;
    /** The longest line of the worker's stderr relayed to the log; the rest of a longer one is dropped. */
    static final int MAX_STDERR_LINE_BYTES = 8 * 1024;
    /** See {@link PendingCall#toolTimeLeft}. */
    static final Duration TOOL_DEADLINE_GRACE = Duration.ofSeconds(1);
    /** How long a retired worker may take to exit at end of input before it is killed. */
    private static final long RETIRE_GRACE_MILLIS = 2_000;

    private final String name;
    private final Process process;
    private final ProcessTree tree;
    private final OutputStream commands;
    private final ScheduledExecutorService timers;
    private final Duration killGrace;
    private final Duration setupLimit;
    private final AnswerBudget answers;
    private final Listener listener;
    private final Map<Long, PendingCall> pending = new ConcurrentHashMap<>();
    private volatile boolean ready;
    /** Set before a kill is even sent, so a dying worker is never handed out again. */
    private volatile boolean retiring;
    private volatile boolean gone;
    /** Why this worker ended: set when the server ends it, or at its exit when it ended on its own. */
    private volatile Ending ending;
    /**
     * The call whose code cost this worker (it asked to be replaced after it, missed its deadline in it, or died
     * while it ran); 0 for none. Set before that call is answered, so its caller sees it with the answer.
     */
    private volatile long lostToCall;
    /**
     * How the worker broke the protocol, if it did ({@link WorkerEndCause#OVERSIZED_MESSAGE},
     * {@link WorkerEndCause#BROKEN_RESULT}): it is hostile or broken, and was killed. Null while it keeps to it.
     */
    private volatile WorkerEndCause protocolBreach;
    private final AtomicInteger callsServed = new AtomicInteger();

    private final class PendingCall {
        final long id;
        final CodeRequest request;
        final ToolCalls tools;
        final CompletableFuture<WorkerRun> answer = new CompletableFuture<>();
        volatile long startedNanos;
        volatile ScheduledFuture<?> deadline;

        PendingCall(long id, CodeRequest request, ToolCalls tools) {
            this.id = id;
            this.request = request;
            this.tools = tools;
        }

        /**
         * Ends the call with its report, and the tool calls it made whatever the outcome: they may have had side
         * effects. Tool calls still in flight are abandoned. Every field of the report is held to the answer budget
         * here, whatever the worker sent; the tool calls are this side's record, never the worker's.
         */
        void complete(RunReport report) {
            ToolErrorKind inFlight = report.status() == Status.TIMEOUT ? ToolErrorKind.TIMEOUT : ToolErrorKind.ABANDONED;
            List<ToolCall> calls = tools.finish(inFlight);
            answer.complete(new WorkerRun(answers.bound(report), calls, tools.omitted()));
        }

        /**
         * How long a tool call may take: the time the code has left, plus a moment. The worker's own deadline,
         * which stops the code and its tool call with a {@code timeout} answer, comes a little after this side hears
         * that the code started; without the moment the tool call's own timeout could win that race and end the
         * code with a {@code ToolError} instead (ServerExitIT).
         */
        Duration toolTimeLeft() {
            return remaining().plus(TOOL_DEADLINE_GRACE);
        }

        /** The time the code has left; the whole timeout until the worker says it started. */
        Duration remaining() {
            if (startedNanos == 0) {
                return request.timeout();
            }
            long left = request.timeout().toNanos() - (System.nanoTime() - startedNanos);
            return Duration.ofNanos(Math.max(0, left));
        }
    }

    /** @param answers what a report may carry; each report read from the worker is held to it */
    WorkerProcess(String name, Process process, ScheduledExecutorService timers, Duration killGrace,
            Duration setupLimit, AnswerBudget answers, Listener listener) {
        this.name = name;
        this.process = process;
        this.tree = new ProcessTree(process);
        this.commands = process.getOutputStream();
        this.timers = timers;
        this.killGrace = killGrace;
        this.setupLimit = setupLimit;
        this.answers = answers;
        this.listener = listener;
    }

    /** Starts listening to the process; separate from construction so the pool can record the worker first. */
    void start() {
        Thread.ofPlatform().daemon().name(name + "-events").start(this::readEvents);
        Thread.ofPlatform().daemon().name(name + "-stderr").start(this::relayStderr);
    }

    String name() {
        return name;
    }

    boolean isReady() {
        return ready && !retiring && !gone;
    }

    /** Whether this worker ever became ready, even if it is gone now. */
    boolean isReadyOnce() {
        return ready;
    }

    boolean isGone() {
        return gone;
    }

    /** Why this worker is gone; null while it is not. */
    Ending ending() {
        return gone ? ending : null;
    }

    /** Why this worker ended, as "which ..." goes on: "ran out of memory (worker.heap)". */
    String endingReason() {
        Ending known = ending;
        return known == null ? "stopped" : known.reason();
    }

    /** Whether call {@code id}'s code is what cost this worker (see {@link #lostToCall}). */
    boolean lostTo(long id) {
        return id != 0 && lostToCall == id;
    }

    /**
     * Sends the call; the future completes exactly once, by the worker's answer or by a deadline here.
     *
     * @param tools where the code's requests for the operator's tools go (code mode)
     */
    CompletableFuture<WorkerRun> execute(long id, CodeRequest request, ToolCalls tools) {
        PendingCall call = new PendingCall(id, request, tools);
        callsServed.incrementAndGet();
        // Until the worker says the code started, it may be building a context; that has its own limit. The
        // deadline exists before the call is visible to onExit, which cancels it.
        call.deadline = timers.schedule(() -> abandon(call, false), setupLimit.toMillis(), TimeUnit.MILLISECONDS);
        pending.put(id, call);
        if (gone && pending.remove(id) != null) {
            // Died after it was handed out but before onExit could see this call: the code never ran.
            call.deadline.cancel(false);
            call.complete(RunReport.setupError(
                    "The sandbox worker stopped before this call could start; please retry."));
            return call.answer;
        }
        send(switch (request) {
            case ValidationRequest validation -> new WorkerCommand.Validate(id, validation.language(), validation.code(),
                    validation.timeout().toMillis(), tools.catalog());
            case InspectionRequest inspection -> new WorkerCommand.Inspect(id, inspection.sessionId(),
                    inspection.timeout().toMillis());
            case ExecutionRequest execution -> new WorkerCommand.Execute(id, execution.language(), execution.code(),
                    execution.stdin(),
                    execution.timeout().toMillis(), execution.sessionId(), execution.filename(), execution.files(),
                    execution.workingDirectory() == null ? null : execution.workingDirectory().toString(),
                    execution.inputs());
        });
        return call.answer;
    }

    void cancel(long id) {
        if (pending.containsKey(id)) {
            send(new WorkerCommand.Cancel(id));
        }
    }

    void closeSession(String sessionId) {
        send(new WorkerCommand.CloseSession(sessionId));
    }

    void kill() {
        retiring = true;
        tree.kill();
    }

    /** Ends these workers and their process trees, all at once, within about a second: the server is ending. */
    static void endAll(List<WorkerProcess> workers) {
        workers.forEach(worker -> worker.retiring = true);
        ProcessTree.endAll(workers.stream().map(worker -> worker.tree).toList(), ProcessTree.AT_EXIT_GRACE);
    }

    /** The memory the worker's processes hold now (see {@link ProcessTree#residentBytes}). */
    long residentBytes() {
        return tree.residentBytes();
    }

    int callsServed() {
        return callsServed.get();
    }

    /** Takes the worker out of service for good and lets it exit; the pool starts a replacement. */
    void retire() {
        retiring = true;
        endFor(WorkerEndCause.MAX_CALLS, "served " + callsServed() + " calls (worker.max-calls)");
        stop();
    }

    /** Records why the server is ending this worker; the first reason given wins. */
    private synchronized void endFor(WorkerEndCause cause, String reason) {
        if (ending == null) {
            ending = new Ending(cause, reason);
        }
    }

    /** Asks the worker to exit by closing its stdin, and kills it if it has not after a moment. */
    void stop() {
        tree.closeInput();
        try {
            timers.schedule(this::kill, RETIRE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            kill(); // the sandbox is closed: nothing would run the kill later
        }
    }

    private void send(WorkerCommand command) {
        byte[] line = (WireCodec.encode(command) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            synchronized (commands) {
                commands.write(line);
                commands.flush();
            }
        } catch (IOException e) {
            // The worker is dying; readEvents sees EOF and answers whatever is pending.
            log.debug("{}: cannot send {}: {}", name, command.getClass().getSimpleName(), e.getMessage());
        }
    }

    /**
     * Reads the worker's events until its stdout ends. A line is never held beyond {@link WireCodec#MAX_LINE_BYTES}:
     * an honest worker's lines are far smaller (its results are within the answer budget), so a longer one means
     * the worker is hostile or broken, and it is killed; its calls are answered when its stdout ends.
     */
    private void readEvents() {
        BoundedLineReader events = new BoundedLineReader(process.getInputStream(), WireCodec.MAX_LINE_BYTES);
        try {
            for (BoundedLineReader.Result next = events.next(); !(next instanceof BoundedLineReader.Eof);
                    next = events.next()) {
                if (!(next instanceof BoundedLineReader.Line line)) {
                    breach(WorkerEndCause.OVERSIZED_MESSAGE,
                            "sent a line longer than " + WireCodec.MAX_LINE_BYTES + " bytes",
                            "sent a message larger than the protocol allows and was replaced");
                    continue;
                }
                switch (WireCodec.read(line.text(), WorkerEvent.class)) {
                    case Decoded.Message<WorkerEvent> message -> handle(message.message());
                    case Decoded.UnknownType<WorkerEvent> unknown -> log.warn("{}: unknown event {}", name, unknown.type());
                    case Decoded.NotProtocol<WorkerEvent> notProtocol -> {
                        // A JVM warning, say: skipping it keeps one stray line from stalling the worker.
                        String text = line.text();
                        log.warn("{}: ignored a line that is not protocol: {}", name,
                                text.length() > 200 ? text.substring(0, 200) : text);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            log.warn("{}: protocol stream failed: {}", name, e.toString());
        } finally {
            onExit();
        }
    }

    private void handle(WorkerEvent event) {
        switch (event) {
            case WorkerEvent.Ready readiness -> {
                ready = true;
                log.info("{} (pid {}) is ready on {}{}", name, process.pid(), readiness.engine(),
                        readiness.aotCache() ? ", AOT cache in use" : "");
                listener.ready(this, readiness.engine(), readiness.aotCache());
            }
            case WorkerEvent.Started started -> {
                PendingCall call = pending.get(started.id());
                if (call != null) {
                    call.startedNanos = System.nanoTime();
                    call.deadline.cancel(false);
                    long limit = call.request.timeout().plus(killGrace).toMillis();
                    call.deadline = timers.schedule(() -> abandon(call, true), limit, TimeUnit.MILLISECONDS);
                }
            }
            case WorkerEvent.ToolCall request -> {
                PendingCall call = pending.get(request.id());
                if (call != null) {
                    // A tool may take seconds: never on this thread, which must keep reading the worker's events.
                    Thread.ofVirtual().name(name + "-tool-" + request.id() + "." + request.seq()).start(() -> send(
                            new WorkerCommand.ToolResult(request.id(), request.seq(), call.tools.handle(request.op(),
                                    request.tool(), request.params(), call.toolTimeLeft()))));
                }
            }
            // Every report the worker writes has a status. The call stays pending, answered when stdout ends.
            case WorkerEvent.Result answer when answer.report() == null || answer.report().status() == null ->
                    breach(WorkerEndCause.BROKEN_RESULT, "sent a result for call " + answer.id() + " without a status",
                            "sent a result without a status and was replaced");
            case WorkerEvent.Result answer -> {
                if (answer.recycle()) {
                    log.info("{} asked to be replaced after call {}", name, answer.id());
                    // A precaution the worker asks for after code that did not stop when interrupted, a sandbox
                    // refusal or a limit (a call stopped cleanly at its timeout keeps its worker): routine, so info.
                    endFor(WorkerEndCause.PRECAUTION, "was replaced as a precaution after a call that did not stop when"
                            + " interrupted, was refused by the sandbox or hit a limit");
                    lostToCall = answer.id();
                    kill();
                }
                PendingCall call = pending.remove(answer.id());
                if (call != null) {
                    call.deadline.cancel(false);
                    call.complete(answer.report());
                }
            }
        }
    }

    /**
     * The worker broke the protocol: the first breach ends it (killed, with {@code cause}); its calls are answered
     * as lost when its stdout ends ({@link #workerDied}). Called only from the thread that reads its events.
     */
    private void breach(WorkerEndCause cause, String logged, String ending) {
        if (protocolBreach != null) {
            return;
        }
        protocolBreach = cause;
        log.warn("{}: {}; killing pid {}", name, logged, process.pid());
        endFor(cause, ending);
        kill();
    }

    /** The worker missed a deadline: answer the call here and kill the worker, which cannot be trusted now. */
    private void abandon(PendingCall call, boolean started) {
        if (pending.remove(call.id) == null) {
            return;
        }
        if (started) {
            endFor(WorkerEndCause.MISSED_TIMEOUT, "did not stop a call at its timeout and was killed");
        } else {
            endFor(WorkerEndCause.SLOW_START, "did not start a call within " + setupLimit.toSeconds() + " s and was killed");
        }
        if (started) {
            lostToCall = call.id;
        }
        kill();
        if (started) {
            double seconds = (System.nanoTime() - call.startedNanos) / 1e9;
            call.complete(RunReport.lost(Status.TIMEOUT, -1, seconds, RunReport.timedOutAfter(
                    call.request.timeout()) + "; the worker did not stop in time and was replaced, so its output was lost."));
        } else {
            call.complete(RunReport.setupError("The sandbox worker did not start the code within "
                    + setupLimit.toSeconds() + " seconds and was replaced; please retry."));
        }
        log.warn("{}: call {} missed its deadline; killed pid {}", name, call.id, process.pid());
    }

    private void onExit() {
        int exitCode;
        try {
            exitCode = process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exitCode = -1;
        }
        if (exitCode == OUT_OF_MEMORY_EXIT) {
            endFor(WorkerEndCause.OUT_OF_MEMORY, "ran out of memory (worker.heap)");
        } else {
            endFor(isReadyOnce() ? WorkerEndCause.EXITED : WorkerEndCause.START_FAILED,
                    "stopped unexpectedly (exit code " + exitCode + ")");
        }
        gone = true;
        for (PendingCall call : pending.values()) {
            if (call.startedNanos != 0 && lostToCall == 0 && !retiring) {
                lostToCall = call.id; // it died while this call's code ran
            }
            if (pending.remove(call.id) != null) {
                call.deadline.cancel(false);
                call.complete(workerDied(call, exitCode));
            }
        }
        log.info("{} (pid {}) exited with code {}", name, process.pid(), exitCode);
        listener.gone(this);
    }

    private RunReport workerDied(PendingCall call, int exitCode) {
        double seconds = call.startedNanos == 0 ? 0 : (System.nanoTime() - call.startedNanos) / 1e9;
        String message = protocolBreach == WorkerEndCause.OVERSIZED_MESSAGE
                ? "The sandbox worker running this call sent a message larger than the protocol allows ("
                        + WireCodec.MAX_LINE_BYTES + " bytes) and was replaced; the call's output was lost."
                : protocolBreach == WorkerEndCause.BROKEN_RESULT
                ? "The sandbox worker running this call sent a result without a status and was replaced; the call's"
                        + " output was lost."
                : exitCode == OUT_OF_MEMORY_EXIT
                ? RunReport.MEMORY_LIMIT_MESSAGE
                : "The sandbox worker running this call stopped unexpectedly (exit code " + exitCode
                        + "); the call was lost and a new worker is starting. Please retry.";
        return RunReport.lost(Status.EXECUTION_ERROR, 1, seconds, message);
    }

    private void relayStderr() {
        BoundedLineReader err = new BoundedLineReader(process.getErrorStream(), MAX_STDERR_LINE_BYTES);
        try {
            for (BoundedLineReader.Result next = err.next(); !(next instanceof BoundedLineReader.Eof); next = err.next()) {
                // The worker's own notices start with "worker:"; anything else is GraalPy or JVM chatter.
                if (!(next instanceof BoundedLineReader.Line line)) {
                    log.debug("{}: dropped a stderr line longer than {} bytes", name, MAX_STDERR_LINE_BYTES);
                } else if (line.text().startsWith("worker:")) {
                    log.info("{}: {}", name, line.text().substring(7).strip());
                } else {
                    log.debug("{}: {}", name, line.text());
                }
            }
        } catch (IOException ignored) {
            // process gone
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
