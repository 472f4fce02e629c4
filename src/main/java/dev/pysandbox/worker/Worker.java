package dev.pysandbox.worker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.wire.Decoded;
import dev.pysandbox.wire.WireCodec;
import dev.pysandbox.wire.WorkerCommand;
import dev.pysandbox.wire.WorkerEvent;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/**
 * One worker process: reads commands, runs one call at a time, keeps contexts built ahead of demand and
 * holds the contexts of the sessions pinned to it. Calls without a session get a fresh context, which is
 * closed afterwards, so nothing one call does is visible to the next.
 */
final class Worker {
    private final WorkerSettings settings;
    private final PrintStream protocol;
    private final SandboxContexts contexts;
    private final ToolBridge tools = new ToolBridge(this::send);
    private final ChartBridge charts = new ChartBridge(ChartLimits.DEFAULT);
    private final BlockingQueue<PreparedContext> ready;
    /**
     * JavaScript's contexts, and the one kept ready from the worker's first JavaScript call on: a worker that
     * serves only Python never starts GraalJS, whose engine and ready context would share its heap and its cores
     * with Python's calls (BENCHMARKS.md, "JavaScript").
     */
    private final JavaScriptContexts javascript;
    private final BlockingQueue<PreparedContext> javascriptReady = new ArrayBlockingQueue<>(1);
    private final AtomicBoolean javascriptStarted = new AtomicBoolean();
    private final Map<String, PreparedContext> sessions = new ConcurrentHashMap<>();
    /** Cancels that arrived before their call started running (it may still be waiting for a context). */
    private final Set<Long> cancelledEarly = ConcurrentHashMap.newKeySet();
    /**
     * User code runs on this thread. GraalPy's Python frames live on the Java stack and it does not count them
     * against {@code sys.getrecursionlimit()}: the stack is the recursion ceiling. The JVM's default 1 MB stopped
     * recursion at about 290 frames; 16 MB reaches about 5,000 frames of code seen for the first time (more once
     * its nodes settle), past CPython's default limit of 1,000 (BENCHMARKS.md, "Recursion depth"). The stack is
     * reserved, not committed: its pages cost memory only once a deep recursion has touched them.
     */
    static final long PYTHON_STACK_BYTES = 16L << 20;
    private final ExecutorService calls = Executors.newSingleThreadExecutor(daemon("python-call", PYTHON_STACK_BYTES));
    private final ExecutorService janitor = Executors.newSingleThreadExecutor(daemon("context-closer"));
    private final ScheduledExecutorService watchdog = Executors.newScheduledThreadPool(1, daemon("call-watchdog"));
    private volatile GuestCall current;
    /** Calls received and not yet answered. */
    private final AtomicInteger callsInFlight = new AtomicInteger();
    private final WarmUp warmUp;

    Worker(WorkerSettings settings, PrintStream protocol) {
        this.settings = settings;
        this.protocol = protocol;
        this.contexts = new SandboxContexts(settings, tools, charts);
        this.javascript = new JavaScriptContexts(tools, settings.files());
        this.ready = new ArrayBlockingQueue<>(Math.max(1, settings.readyContexts()));
        // Idle means no call waiting or running and every ready context built: the contexts the next calls take
        // come before warming.
        this.warmUp = new WarmUp(contexts, settings.warmUpRuns(),
                () -> callsInFlight.get() == 0 && ready.remainingCapacity() == 0);
    }

    /** Serves commands until stdin closes; the supervisor closes it to stop the worker. */
    void serve(InputStream commands) throws IOException {
        Thread builder = daemon("context-builder").newThread(this::keepContextsReady);
        builder.start();
        BufferedReader reader = new BufferedReader(new InputStreamReader(commands, StandardCharsets.UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            switch (WireCodec.read(line, WorkerCommand.class)) {
                case Decoded.Message<WorkerCommand> message -> serve(message.message());
                case Decoded.UnknownType<WorkerCommand> unknown ->
                        System.err.println("worker: unknown command type " + unknown.type());
                // The supervisor writes nothing else on this stream: a line that is not protocol ends the worker.
                case Decoded.NotProtocol<WorkerCommand> broken ->
                        throw new IllegalStateException("a command line is not protocol: " + broken.reason());
            }
        }
    }

    private void serve(WorkerCommand command) {
        switch (command) {
            case WorkerCommand.Call call -> {
                // Counted before the warm-up is told, which looks at the count after publishing its snippet.
                callsInFlight.incrementAndGet();
                janitor.execute(warmUp::yieldToCall);
                calls.execute(() -> {
                    try {
                        execute(call);
                    } finally {
                        callsInFlight.decrementAndGet();
                    }
                });
            }
            case WorkerCommand.ToolResult result -> tools.deliver(result.id(), result.seq(), result.reply());
            case WorkerCommand.Cancel cancel -> cancel(cancel.id());
            case WorkerCommand.CloseSession close -> closeSession(close.session());
        }
    }

    /**
     * Keeps the ready queue full. A context imports the preload modules only while another one is waiting:
     * a worker at an agent's pace has time to spare and its calls find their imports done, while a burst that
     * emptied the queue (and a worker's very first context) gets plain contexts, a fraction of the cost, so calls
     * do not queue behind imports they may not need.
     */
    private void keepContextsReady() {
        boolean announced = false;
        while (true) {
            try {
                PreparedContext prepared = contexts.prepare(!ready.isEmpty());
                ready.put(prepared);
                if (!announced) {
                    announced = true;
                    // "sharing" in java.vm.info: the JVM mapped a class archive, here only ever our AOT cache
                    // (the linked worker JDK has no default CDS archive).
                    boolean aotCache = System.getProperty("java.vm.info", "").contains("sharing");
                    send(new WorkerEvent.Ready(contexts.implementationName(), aotCache));
                    if (settings.warmUpRuns() > 0) {
                        daemon("warm-up").newThread(warmUp).start();
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // Without contexts this worker is useless; exiting lets the supervisor start a healthy one.
                System.err.println("worker: cannot build a Python context: " + e);
                e.printStackTrace();
                System.exit(3);
            }
        }
    }

    /** Keeps one JavaScript context ready; a JavaScript context costs milliseconds once the engine is warm. */
    private void keepJavaScriptReady() {
        while (true) {
            try {
                javascriptReady.put(javascript.prepare());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                System.err.println("worker: cannot build a JavaScript context: " + e);
                e.printStackTrace();
                System.exit(3);
            }
        }
    }

    private void execute(WorkerCommand.Call command) {
        Language language = command.language();
        if (command instanceof WorkerCommand.Inspect inspect) {
            PreparedContext held = sessions.get(inspect.session());
            if (held == null) {
                reply(command, RunReport.setupError("This worker holds no context for the session."), false);
                return;
            }
            language = held.runner().language(); // an inspection names no language: the session's
        }
        PreparedContext prepared;
        try {
            prepared = command.session() == null ? takeReady(language) : sessionContext(command.session(), language);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (prepared.runner().language() != language) {
            // The supervisor keeps a session to one language; this is the second check.
            reply(command, RunReport.setupError("This session runs " + prepared.runner().language().displayName()
                    + "; a " + language.displayName() + " call cannot run in it."), false);
            return;
        }
        send(new WorkerEvent.Started(command.id()));
        GuestCall call = new GuestCall(prepared, command, settings, watchdog, tools, charts,
                (result, recycle) -> reply(command, result, recycle));
        // Publish the call before looking for an early cancel: cancel() records first and looks second, so
        // one of the two always sees the other.
        current = call;
        cancelledEarly.removeIf(id -> id < command.id()); // cancels for calls that had already finished
        if (cancelledEarly.remove(command.id())) {
            call.cancel();
        }
        try {
            call.run();
        } finally {
            current = null;
            // A stopped call's interrupt may leave this thread's flag set (the tool bridge keeps it so that the
            // guest sees the stop); the worker outlives the call now, and the next call must not start interrupted.
            Thread.interrupted();
            if (command.session() == null) {
                janitor.execute(() -> prepared.context().close(true));
            }
        }
    }

    private PreparedContext sessionContext(String session, Language language) throws InterruptedException {
        PreparedContext existing = sessions.get(session);
        if (existing != null) {
            return existing;
        }
        PreparedContext fresh = takeReady(language);
        sessions.put(session, fresh);
        return fresh;
    }

    private PreparedContext takeReady(Language language) throws InterruptedException {
        return switch (language) {
            case PYTHON -> takeReadyPython();
            case JAVASCRIPT -> {
                if (javascriptStarted.compareAndSet(false, true)) {
                    daemon("javascript-builder").newThread(this::keepJavaScriptReady).start();
                }
                yield javascriptReady.take();
            }
        };
    }

    /** A ready context that shows the packages installed now: one built before an install is dropped. */
    private PreparedContext takeReadyPython() throws InterruptedException {
        while (true) {
            PreparedContext prepared = ready.take();
            if (contexts.isCurrent(prepared)) {
                return prepared;
            }
            janitor.execute(() -> prepared.context().close(true));
        }
    }

    private void reply(WorkerCommand.Call command, RunReport report, boolean recycle) {
        send(new WorkerEvent.Result(command.id(), report, recycle));
        if (recycle) {
            System.err.println("worker: call " + command.id() + " left this worker unusable; asking to be replaced");
        }
    }

    private void cancel(long id) {
        cancelledEarly.add(id);
        GuestCall call = current;
        if (call != null && call.id() == id && cancelledEarly.remove(id)) {
            call.cancel();
        }
    }

    private void closeSession(String session) {
        PreparedContext prepared = sessions.remove(session);
        if (prepared != null) {
            janitor.execute(() -> prepared.context().close(true));
        }
    }

    private void send(WorkerEvent event) {
        String line = WireCodec.encode(event);
        synchronized (protocol) {
            protocol.println(line);
            protocol.flush();
        }
    }

    private static ThreadFactory daemon(String name) {
        return daemon(name, 0);
    }

    /** @param stackBytes the thread's stack size, or 0 for the JVM's default */
    private static ThreadFactory daemon(String name, long stackBytes) {
        return runnable -> {
            Thread thread = new Thread(null, runnable, name, stackBytes);
            thread.setDaemon(true);
            return thread;
        };
    }
}
