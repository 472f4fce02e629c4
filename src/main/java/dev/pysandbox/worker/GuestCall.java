package dev.pysandbox.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.graalvm.polyglot.PolyglotException;

import dev.pysandbox.execution.AnswerBudget.FileListing;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.Truncation;
import dev.pysandbox.files.FileName;
import dev.pysandbox.files.ReturnedFiles;
import dev.pysandbox.files.SandboxFileSystem;
import dev.pysandbox.wire.WireCodec;
import dev.pysandbox.wire.WorkerCommand;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/**
 * Runs one call's code in a prepared context, Python or JavaScript, and answers exactly once.
 *
 * <p>Stopping (deadline, output flood, client cancel) interrupts the context from a watchdog thread, never
 * from the thread that writes output: closing a context from inside its own output stream fails (measured).
 * Some builtins ({@code 7**(10**8)}) ignore interrupts; then the call is answered from the watchdog with the
 * output so far and the worker asks to be replaced, because its guest thread is lost.
 *
 * <p>A call stopped cleanly keeps its worker, whatever the reason it was stopped (SECURITY.md, "Recycling"):
 * cleanly means the context answered the interrupt within {@code interruptWaitMillis}, so no guest code runs any
 * more, and a call without a session also had its context closed before the answer (a close that fails or
 * hangs costs the worker). What the interrupted code left behind is then either gone with its context or, in a
 * session, the session's own state, which its caller could have made just as well without a timeout. Code that
 * needed its context cancelled, or ignored both, costs the worker: an interpreter that did not stop when asked
 * is not trusted with the next call.
 */
final class GuestCall {
    /** Called once with the call's report and whether this worker must be replaced. */
    interface Reply {
        void send(RunReport report, boolean recycle);
    }

    private enum Stop { NONE, TIMEOUT, OUTPUT_LIMIT, CANCELLED }

    /** How many of a session's variables {@code inspect_session} lists, the largest first. */
    static final int INSPECTED_VARIABLES = 100;
    /** How many objects it visits per variable before giving that variable's size as a lower bound. */
    static final int INSPECTED_OBJECTS = 1_000_000;

    private final PreparedContext prepared;
    private final WorkerCommand.Call command;
    private final WorkerSettings settings;
    private final ScheduledExecutorService watchdog;
    private final ToolBridge tools;
    private final ChartBridge charts;
    private final Reply reply;
    private final AtomicReference<Stop> stop = new AtomicReference<>(Stop.NONE);
    private final AtomicBoolean answered = new AtomicBoolean();
    /** Completed by the watchdog once it asked the context to stop: whether the context answered the interrupt. */
    private final CompletableFuture<Boolean> interruptAnswered = new CompletableFuture<>();
    private final OutputLimiter out;
    private final OutputLimiter err;
    private volatile long startNanos;

    GuestCall(PreparedContext prepared, WorkerCommand.Call command, WorkerSettings settings,
            ScheduledExecutorService watchdog, ToolBridge tools, ChartBridge charts, Reply reply) {
        this.prepared = prepared;
        this.command = command;
        this.settings = settings;
        this.watchdog = watchdog;
        this.tools = tools;
        this.charts = charts;
        this.reply = reply;
        this.out = new OutputLimiter(settings.captureBytes(), settings.stopAfterBytes(), () -> requestStop(Stop.OUTPUT_LIMIT));
        this.err = new OutputLimiter(settings.captureBytes(), settings.stopAfterBytes(), () -> requestStop(Stop.OUTPUT_LIMIT));
    }

    long id() {
        return command.id();
    }

    void cancel() {
        requestStop(Stop.CANCELLED);
    }

    void run() {
        startNanos = System.nanoTime();
        if (stop.get() != Stop.NONE) {
            // Stopped before it began (an early cancel): an interrupt now would find nothing to interrupt.
            awaitInterrupt();
            answer(stopped(stop.get(), false), false);
            return;
        }
        switch (command) {
            case WorkerCommand.Validate validation -> validate(validation);
            case WorkerCommand.Inspect inspection -> inspect(inspection);
            case WorkerCommand.Execute execution -> execute(execution);
        }
    }

    private void execute(WorkerCommand.Execute command) {
        try {
            placeFiles(command);
        } catch (IOException | IllegalArgumentException e) {
            answer(RunReport.setupError("The files could not be placed in the working directory: " + e.getMessage()), false);
            return;
        }
        byte[] input = command.stdin() == null ? new byte[0] : command.stdin().getBytes(StandardCharsets.UTF_8);
        prepared.streams().attach(input, out, err);
        ScheduledFuture<?> deadline = watchdog.schedule(() -> requestStop(Stop.TIMEOUT),
                command.timeoutMillis(), TimeUnit.MILLISECONDS);
        RunReport result;
        boolean recycle = false;
        tools.begin(command.id());
        charts.begin(startNanos + TimeUnit.MILLISECONDS.toNanos(command.timeoutMillis()));
        ChartBridge.Drawn drawn;
        try {
            RunOutcome outcome = prepared.runner().run(new GuestRun(command.code(),
                    Prelude.userFilename(command.filename()), command.session() == null,
                    command.inputs() == null ? "{}" : command.inputs(), settings.captureBytes(),
                    AnswerBudget.ERROR_MESSAGE_CHARS, () -> stop.get() != Stop.NONE));
            prepared.runner().finishCharts();
            // One write past the limit may be the code's last act, ending it before the stop lands: the limit was
            // still broken, and the output cut, so the answer says so as it would had the stop come first.
            result = stop.get() == Stop.OUTPUT_LIMIT ? stopped(Stop.OUTPUT_LIMIT, false)
                    : fromOutcome(outcome, prepared.runner().installing());
        } catch (PolyglotException e) {
            if (stop.get() != Stop.NONE && (e.isInterrupted() || e.isCancelled())) {
                flushGuestBuffers();
                recycle = !stoppedCleanly();
                result = stopped(stop.get(), recycle);
            } else {
                GuestFailure failure = GuestFailure.classify(e);
                recycle = failure.recycleWorker();
                err.append(failure.stderrLine());
                result = finished(failure.status(), failure.exitCode(), failure.message(), null, false);
            }
        } catch (OutOfMemoryError e) {
            result = finished(Status.EXECUTION_ERROR, 1, RunReport.MEMORY_LIMIT_MESSAGE, null, false);
            recycle = true;
        } catch (RuntimeException e) {
            if (stop.get() != Stop.NONE) {
                recycle = !stoppedCleanly(); // the context was stopped under the guest, as asked
                result = stopped(stop.get(), recycle);
            } else {
                // The context itself failed (internal error): this worker is suspect.
                result = finished(Status.EXECUTION_ERROR, 1, "The sandbox failed while running the code; the worker is being replaced.", null, false);
                recycle = true;
            }
        } finally {
            deadline.cancel(false);
            tools.end();
            drawn = charts.end();
            // A stop that came as the code ended anyway must be over before the answer: its interrupt would
            // otherwise reach the session's next call.
            awaitInterrupt();
        }
        answer(withWrittenFiles(result).withImages(drawn.images(), drawn.omitted()), recycle);
        prepared.streams().detach();
    }

    /**
     * {@code validate_code}: the prelude parses the code and reports what would fail, executing nothing. Its
     * answer is the result's {@code result}, {@code {valid, errors}}. Bounded like any call: a parser fed a
     * pathological input is interrupted at the timeout.
     */
    private void validate(WorkerCommand.Validate command) {
        ScheduledFuture<?> deadline = watchdog.schedule(() -> requestStop(Stop.TIMEOUT),
                command.timeoutMillis(), TimeUnit.MILLISECONDS);
        RunReport result;
        boolean recycle = false;
        try {
            ValidationReport report = prepared.runner().validate(command.code(),
                    command.catalog() == null ? "{}" : command.catalog());
            result = finished(Status.SUCCESS, 0, null, report.toWire(), false);
        } catch (PolyglotException e) {
            recycle = stop.get() != Stop.NONE && !stoppedCleanly();
            result = stop.get() != Stop.NONE ? stopped(stop.get(), recycle)
                    : finished(Status.EXECUTION_ERROR, 1, "The code could not be checked: " + e.getMessage(), null, false);
        } catch (RuntimeException e) {
            recycle = true;
            result = finished(Status.EXECUTION_ERROR, 1, "The code could not be checked.", null, false);
        } finally {
            deadline.cancel(false);
        }
        answer(result, recycle);
    }

    /**
     * {@code inspect_session}: what the session's {@code __main__} holds, told by the prelude without running any
     * of the session's code, and this worker's heap after a full collection, the one measure of memory that is
     * not a guess (a context's own share of the heap cannot be told apart from the engine's). Bounded like any
     * call.
     */
    private void inspect(WorkerCommand.Inspect command) {
        ScheduledFuture<?> deadline = watchdog.schedule(() -> requestStop(Stop.TIMEOUT),
                command.timeoutMillis(), TimeUnit.MILLISECONDS);
        RunReport result;
        boolean recycle = false;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> state = WireCodec.decode(prepared.runner().state(INSPECTED_VARIABLES, INSPECTED_OBJECTS),
                    Map.class);
            System.gc();
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            state.put("worker_heap_used_bytes", heap.getUsed());
            state.put("worker_heap_max_bytes", heap.getMax());
            result = finished(Status.SUCCESS, 0, null, state, false);
        } catch (PolyglotException e) {
            recycle = stop.get() != Stop.NONE && !stoppedCleanly();
            result = stop.get() != Stop.NONE ? stopped(stop.get(), recycle)
                    : finished(Status.EXECUTION_ERROR, 1, "The session could not be inspected: " + e.getMessage(), null,
                            false);
        } catch (RuntimeException e) {
            recycle = true;
            result = finished(Status.EXECUTION_ERROR, 1, "The session could not be inspected.", null, false);
        } finally {
            deadline.cancel(false);
        }
        answer(result, recycle);
    }

    /**
     * Files in: a new call in the context's scratch space, the files the caller sent, the working directory (a
     * host folder shown read-only, which only a context with a file system, Python's, can show).
     */
    private void placeFiles(WorkerCommand.Execute command) throws IOException {
        prepared.scratch().beginCall();
        if (command.workingDirectory() != null) {
            SandboxFileSystem files = prepared.files();
            if (files == null) {
                throw new IllegalArgumentException("a " + prepared.runner().language().displayName()
                        + " context cannot show a host folder");
            }
            files.showAsWorkingDirectory(Path.of(command.workingDirectory()));
        }
        for (Map.Entry<String, byte[]> file : command.files().entrySet()) {
            prepared.scratch().place(FileName.inWorkingDirectory(file.getKey()), file.getValue());
        }
    }

    /** Files out: the report with the files this call wrote in its working directory. */
    private RunReport withWrittenFiles(RunReport result) {
        try {
            FileListing listing = ReturnedFiles.from(prepared.scratch().writtenByThisCall(),
                    settings.files().returnBytes());
            return result.withFiles(listing.files(), listing.omitted());
        } catch (RuntimeException | OutOfMemoryError e) {
            return result; // a call that filled the heap may leave no room to copy its files: answer without them
        }
    }

    private void requestStop(Stop reason) {
        if (!stop.compareAndSet(Stop.NONE, reason)) {
            return;
        }
        // The ladder: interrupt (the context survives), else cancel the context (a throw-away context
        // only: a session's would be lost silently), else answer now and have this worker killed.
        watchdog.execute(() -> {
            boolean interrupted = interrupt();
            interruptAnswered.complete(interrupted);
            if (interrupted || (command.session() == null && cancelContext())) {
                return; // the guest thread unwinds and run() answers
            }
            answer(stopped(reason, true), true);
        });
    }

    /**
     * Whether the call was stopped cleanly (see the class comment): the context answered the interrupt, and a
     * context of its own (no session) closed. The guest thread may unwind before the watchdog hears back from
     * the interrupt, so this waits for it, a moment at most.
     */
    private boolean stoppedCleanly() {
        return awaitInterrupt() && (command.session() != null || cancelContext());
    }

    /** Whether the context answered the watchdog's interrupt; false when none was asked for or it did not answer. */
    private boolean awaitInterrupt() {
        if (stop.get() == Stop.NONE) {
            return false;
        }
        try {
            return interruptAnswered.get(2 * settings.interruptWaitMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private boolean interrupt() {
        try {
            prepared.context().interrupt(Duration.ofMillis(settings.interruptWaitMillis()));
            return true;
        } catch (TimeoutException | RuntimeException e) {
            return false;
        }
    }

    private boolean cancelContext() {
        // close(true) blocks for as long as the guest's builtin runs, so it gets a thread of its own and a time limit.
        CompletableFuture<Void> closing = new CompletableFuture<>();
        Thread closer = new Thread(() -> {
            try {
                prepared.context().close(true);
                closing.complete(null);
            } catch (RuntimeException e) {
                closing.completeExceptionally(e);
            }
        }, "context-cancel");
        closer.setDaemon(true);
        closer.start();
        try {
            closing.get(settings.interruptWaitMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** Answers once, within the answer budget, so that no guest-filled field makes the protocol line large. */
    private void answer(RunReport result, boolean recycle) {
        if (answered.compareAndSet(false, true)) {
            reply.send(settings.answerBudget().bound(result), recycle);
        }
    }

    private void flushGuestBuffers() {
        // sys.stdout may be the guest's own object with a flush that never returns: guard it like the call.
        ScheduledFuture<?> guard = watchdog.schedule(this::interrupt, settings.interruptWaitMillis(), TimeUnit.MILLISECONDS);
        try {
            prepared.runner().flush();
        } catch (RuntimeException ignored) {
            // Best effort: whatever reached our streams is kept either way.
        } finally {
            guard.cancel(false);
        }
    }

    /** @param recycle whether this worker asks to be replaced, ending a session that lives on it */
    private RunReport stopped(Stop reason, boolean recycle) {
        String why = switch (reason) {
            case TIMEOUT -> RunReport.timedOutAfter(Duration.ofMillis(command.timeoutMillis())) + ".";
            case OUTPUT_LIMIT -> "Output limit exceeded: more than " + settings.stopAfterBytes()
                    + " bytes written to one stream, so execution was stopped.";
            case CANCELLED -> "Cancelled by the client.";
            case NONE -> throw new IllegalStateException("not stopped");
        };
        return finished(reason == Stop.TIMEOUT ? Status.TIMEOUT : Status.EXECUTION_ERROR,
                reason == Stop.TIMEOUT ? -1 : 1, why + sessionAfterStop(recycle), null, false);
    }

    /**
     * What a stop did to the call's session, said in the answer. A session stopped cleanly is kept, as
     * KeyboardInterrupt keeps a REPL's variables: ending it would throw away everything its caller built for
     * one slow call, and what the stopped code left behind is the session's own state, which its caller could
     * have made without a timeout too. A stop that costs the worker ends the session with it.
     */
    private String sessionAfterStop(boolean recycle) {
        if (command.session() == null) {
            return "";
        }
        return recycle
                ? " The code did not stop when interrupted, so its sandbox worker is being replaced and this session"
                        + " ended with it; the next call with this session_id is told so."
                : " The session is kept: its variables are as the stopped code left them, so anything it was"
                        + " changing may be half done.";
    }

    /** @param missing the modules the code imported missing that the server installs on request */
    private RunReport fromOutcome(RunOutcome outcome, List<String> missing) {
        int exitCode = outcome.exitCode();
        String errorMessage = outcome.errorMessage();
        Object result = null;
        boolean resultTruncated = false;
        if (outcome.result() != null) {
            String json = outcome.result().json();
            try {
                result = WireCodec.parseValue(json);
            } catch (RuntimeException e) {
                // Valid JSON beyond the parser's limits (a 1000-digit int, a huge key): return its text.
                result = json;
            }
            resultTruncated = outcome.result().truncated();
        }
        if (exitCode == 0) {
            return finished(Status.SUCCESS, 0, null, result, resultTruncated, missing);
        }
        if (errorMessage == null) {
            errorMessage = "Exited with status " + exitCode + ".";
        }
        return finished(Status.EXECUTION_ERROR, exitCode, errorMessage, result, resultTruncated, missing);
    }

    private RunReport finished(Status status, int exitCode, String message, Object result, boolean resultTruncated) {
        return finished(status, exitCode, message, result, resultTruncated, List.of());
    }

    private RunReport finished(Status status, int exitCode, String message, Object result, boolean resultTruncated,
            List<String> missing) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return new RunReport(status, out.text(), err.text(), exitCode, Math.round(seconds * 1e4) / 1e4, message,
                result, new Truncation(out.truncated(), err.truncated(), resultTruncated, false, false), List.of(), 0,
                missing);
    }
}
