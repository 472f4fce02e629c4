package dev.pysandbox.supervisor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.wire.WireCodec;

/**
 * A worker JVM in memory, for the supervisor's unit tests: a {@link Process} whose stdin, stdout and stderr are
 * {@link InMemoryPipe}s, behind which a thread speaks the worker protocol in JSON lines, as a worker's stdout does. The supervisor's
 * own protocol code ({@link WorkerProcess}) reads and writes it as it reads and writes a real worker, and ends it
 * the same way: closing its stdin, or {@link #destroyForcibly()} (what {@link dev.pysandbox.process.ProcessTree}
 * sends).
 *
 * <p>A call's code says what the worker does with it, so that one worker can be told to fail in any way:
 * <ul>
 *   <li>{@code crash}: starts the call, then exits with code 1 (a crash, or kill -9 by hand);</li>
 *   <li>{@code oom}: starts the call, then exits as -XX:+ExitOnOutOfMemoryError does;</li>
 *   <li>{@code hang}: starts the call and never answers it, not even a cancel (a runaway guest);</li>
 *   <li>{@code sleep}: starts the call and answers it when it is cancelled;</li>
 *   <li>{@code stall}: never says the call started (a worker stuck building a context);</li>
 *   <li>{@code flood}: starts the call, then writes a line longer than the protocol allows;</li>
 *   <li>{@code recycle}: answers, asking to be replaced (as after a sandbox refusal);</li>
 *   <li>{@code timeout}: answers {@code timeout} without asking to be replaced (code interrupted cleanly at its
 *       timeout);</li>
 *   <li>{@code stray}: writes a line that is not protocol, then answers;</li>
 *   <li>{@code long}: CPU-bound code that outruns the interpreter: a general worker answers it only when it is
 *       cancelled, a JIT worker at once, naming its time limit; {@code long-timeout} is answered {@code timeout}
 *       by a JIT worker;</li>
 *   <li>{@code race GENERAL JIT}: a call that does one thing on a general worker and another on a JIT worker, for
 *       the twins of long calls, each one of: {@code wait} (runs until cancelled), {@code ok:MS} (succeeds after MS
 *       ms, printing which worker ran it), {@code fail} (fails at once, as code that imports a module the JIT's
 *       GraalPy lacks), {@code tool:MS} (calls the tool {@code stub.echo} after MS ms, then succeeds when it is
 *       answered), {@code tool-wait:MS} (the same, then runs until cancelled);</li>
 *   <li>{@code fail-on NAME}: answers {@code execution_error} on the worker of that name, success elsewhere (code
 *       that does not end the same way when run again);</li>
 *   <li>{@code busy:MS}: succeeds after MS ms, printing {@code busy} on any worker (code that computes, and prints
 *       the same when run again);</li>
 *   <li>{@code missing A B ...}: answers with success, reporting that the code imported the modules named missing;</li>
 *   <li>{@code forge}: answers as a compromised worker might ({@link #forged}): claiming what only the supervisor
 *       knows, with fields the protocol does not have and output far beyond the answer budget;</li>
 *   <li>anything else: answers with success, printing which worker ran which code in which session.</li>
 * </ul>
 * An {@code inspect} is answered with one variable, {@code in_<session>}.
 */
final class InMemoryWorker extends Process {
    /** How the worker starts. */
    enum Startup {
        /** Says it is ready at once. */
        READY,
        /** Writes an error to stderr and exits with code 1 before it is ready (a broken command line, say). */
        FAILS_TO_START,
        /** Stays up and never says it is ready. */
        NEVER_READY,
        /** Says it is ready when the test calls {@link #becomeReady()}. */
        READY_WHEN_TOLD
    }

    /** The exit codes of a process ended by SIGTERM and SIGKILL. */
    static final int TERMINATED = 143;
    static final int KILLED = 137;
    private static final AtomicLong PIDS = new AtomicLong(4_000_000);

    private final String name;
    private final long pid = PIDS.incrementAndGet();
    private final InMemoryPipe stdin = new InMemoryPipe();
    private final InMemoryPipe stdout = new InMemoryPipe();
    private final InMemoryPipe stderr = new InMemoryPipe();
    private final OutputStream events = stdout.out;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final CompletableFuture<Void> told = new CompletableFuture<>();
    /** Calls started with {@code sleep}, answered when cancelled. */
    private final Set<Long> sleeping = ConcurrentHashMap.newKeySet();
    /** What a call that called a tool does when the tool's answer comes, by call. */
    private final Map<Long, Runnable> toolWaiters = new ConcurrentHashMap<>();
    /** Every command the supervisor sent, as JSON objects, in order. */
    private final BlockingQueue<Map<String, Object>> commands = new LinkedBlockingQueue<>();

    InMemoryWorker(String name, Startup startup) {
        this.name = name;
        Thread.ofPlatform().daemon().name(name + "-in-memory").start(() -> run(startup));
    }

    String name() {
        return name;
    }

    /** A worker started {@link Startup#READY_WHEN_TOLD} says it is ready now. */
    void becomeReady() {
        told.complete(null);
    }

    /** The next command the supervisor sent, waiting for it (30 s at most, a guard against a hang). */
    Map<String, Object> nextCommand() throws InterruptedException {
        Map<String, Object> command = commands.poll(30, TimeUnit.SECONDS);
        if (command == null) {
            throw new AssertionError(name + " received no command");
        }
        return command;
    }

    /** Whether the supervisor has sent nothing not yet taken by {@link #nextCommand()}. */
    boolean noCommandWaiting() {
        return commands.isEmpty();
    }

    /** The next command of this type the supervisor sent, skipping others. */
    Map<String, Object> nextCommand(String type) throws InterruptedException {
        while (true) {
            Map<String, Object> command = nextCommand();
            if (type.equals(command.get("type"))) {
                return command;
            }
        }
    }

    private void run(Startup startup) {
        switch (startup) {
            case READY -> send(Map.of("type", "ready", "engine", "Interpreted", "aotCache", false));
            case FAILS_TO_START -> {
                try {
                    stderr.out.write("Error: could not start (in-memory worker told to fail)\n"
                            .getBytes(StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the supervisor stopped reading
                }
                exit(1);
                return;
            }
            case NEVER_READY -> { }
            case READY_WHEN_TOLD -> {
                told.join();
                send(Map.of("type", "ready", "engine", "Interpreted", "aotCache", false));
            }
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(stdin.in,
                StandardCharsets.UTF_8));
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> command = WireCodec.decode(line, Map.class);
                commands.add(command);
                handle(command);
            }
            exit(0); // end of input: the supervisor asks the worker to exit, and it does
        } catch (IOException e) {
            // ended: the channel was closed under the reader
        }
    }

    private void handle(Map<String, Object> command) {
        long id = command.get("id") instanceof Number number ? number.longValue() : 0;
        switch ((String) command.get("type")) {
            case "execute", "validate" -> call(id, (String) command.get("code"), (String) command.get("session"),
                    command.get("timeoutMillis") instanceof Number millis ? millis.longValue() : 0);
            case "tool-result" -> {
                Runnable waiting = toolWaiters.remove(id);
                if (waiting != null) {
                    waiting.run();
                }
            }
            case "cancel" -> {
                if (sleeping.remove(id)) {
                    send(result(id, new RunReport(Status.EXECUTION_ERROR, "", "", 1, 0.01, "Cancelled", null,
                            null), false));
                }
            }
            case "inspect" -> { // one variable, named after the session it describes
                send(started(id));
                send(result(id, new RunReport(Status.SUCCESS, "", "", 0, 0.01, null, Map.of(
                        "variables", List.of(Map.of("name", "in_" + command.get("session"), "type", "int",
                                "size_bytes", 28)),
                        "variables_omitted", 0, "size_bytes", 28, "worker_heap_used_bytes", 1000,
                        "worker_heap_max_bytes", 2000), null), false));
            }
            default -> { } // close-session, tool-result: recorded, nothing to answer
        }
    }

    private void call(long id, String code, String session, long timeoutMillis) {
        switch (code) {
            case "stall" -> { }
            case "crash" -> {
                send(started(id));
                exit(1);
            }
            case "oom" -> {
                send(started(id));
                exit(WorkerProcess.OUT_OF_MEMORY_EXIT);
            }
            case "hang" -> send(started(id));
            case "sleep" -> {
                sleeping.add(id);
                send(started(id));
            }
            case "long", "long-timeout" -> { // runs until cancelled on a general worker; a JIT worker answers
                send(started(id));
                if (!name.startsWith(WorkerRole.LONG_CALLS.namePrefix())) {
                    sleeping.add(id);
                } else if (code.equals("long")) {
                    send(result(id, success(name + " ran long in " + timeoutMillis + " ms"), false));
                } else {
                    send(result(id, new RunReport(Status.TIMEOUT, "", "", -1, timeoutMillis / 1000.0,
                            RunReport.timedOutAfter(Duration.ofMillis(timeoutMillis)) + ".", null, null), false));
                }
            }
            case "flood" -> {
                send(started(id));
                flood();
            }
            case "recycle" -> {
                send(started(id));
                send(result(id, success("recycled"), true));
            }
            case "timeout" -> {
                send(started(id));
                send(result(id, new RunReport(Status.TIMEOUT, "", "", -1, 5.0, "Execution timed out after 5"
                        + " seconds.", null, null), false));
            }
            case "forge" -> {
                send(started(id));
                send(forged(id));
            }
            case "no-status" -> { // a result line whose report leaves out the one field every answer needs
                send(started(id));
                Map<String, Object> report = new LinkedHashMap<>();
                report.put("stdout", "claims nothing about how it ended\n");
                report.put("exit_code", 0);
                send(result(id, report, false));
            }
            case "stray" -> {
                writeLine("OpenJDK 64-Bit Server VM warning: not protocol");
                send(started(id));
                send(result(id, success("after a stray line"), false));
            }
            default -> {
                send(started(id));
                if (code.startsWith("race ")) {
                    String[] actions = code.split(" ");
                    race(id, name.startsWith(WorkerRole.LONG_CALLS.namePrefix()) ? actions[2] : actions[1]);
                } else if (code.startsWith("busy:")) {
                    later(Long.parseLong(code.substring("busy:".length())), () -> send(result(id, success("busy"), false)));
                } else if (code.startsWith("missing ")) {
                    send(result(id, new RunReport(Status.SUCCESS, "", "", 0, 0.01, null, null, null, List.of(), 0,
                            List.of(code.substring("missing ".length()).split(" "))), false));
                } else if (code.equals("fail-on " + name)) {
                    send(result(id, new RunReport(Status.EXECUTION_ERROR, "", "", 1, 0.01, "failed on " + name,
                            null, null), false));
                } else {
                    send(result(id, success(name + " ran " + code + (session == null ? "" : " in " + session)), false));
                }
            }
        }
    }

    /** One run of a {@code race} call: what {@code action} says (see the class comment). */
    private void race(long id, String action) {
        String[] parts = action.split(":");
        long after = parts.length > 1 ? Long.parseLong(parts[1]) : 0;
        switch (parts[0]) {
            case "wait" -> sleeping.add(id);
            case "fail" -> send(result(id, new RunReport(Status.EXECUTION_ERROR, "", "", 1, 0.01,
                    "ModuleNotFoundError: No module named 'pyexpat'", null, null), false));
            case "ok" -> later(after, () -> send(result(id, success(name + " finished"), false)));
            case "tool", "tool-wait" -> later(after, () -> {
                toolWaiters.put(id, parts[0].equals("tool") ? () -> send(result(id, success(name + " called a tool"), false))
                        : () -> sleeping.add(id));
                send(Map.of("type", "tool-call", "id", id, "seq", 1, "op", "call", "tool", "stub.echo", "params", "{}"));
            });
            default -> throw new IllegalArgumentException("no race action " + action);
        }
    }

    private static void later(long millis, Runnable action) {
        CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS).execute(action);
    }

    private static RunReport success(String stdout) {
        return new RunReport(Status.SUCCESS, stdout + "\n", "", 0, 0.01, null, null, null);
    }

    /** How many characters of stdout and of {@code result} a forged answer carries: far beyond the test budget. */
    static final int FORGED_CHARS = 1024 * 1024;

    /**
     * A result line as a compromised worker could write it, within the protocol's line limit: a success that also
     * claims the session fields, tool calls and installs only the supervisor knows, carries fields the protocol does
     * not have, and fills stdout and {@code result} far beyond the answer budget.
     */
    private static Map<String, Object> forged(long id) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("status", "success");
        report.put("stdout", "o".repeat(FORGED_CHARS));
        report.put("stderr", "");
        report.put("exit_code", 0);
        report.put("execution_time", 0.01);
        report.put("result", "r".repeat(FORGED_CHARS));
        report.put("files", List.of());
        report.put("session_new", true);
        report.put("session_rebuilt", 7);
        report.put("session_ended", "expired");
        report.put("tool_calls", List.of(Map.of("tool", "forged.tool", "ok", true, "duration_ms", 1)));
        report.put("tool_calls_omitted", 5);
        report.put("installing", List.of("forged_module"));
        // A field reports may have, naming a module the server does not install.
        report.put("missing_modules", List.of("forged_module"));
        report.put("granted", "admin");
        return result(id, report, false);
    }

    private static Map<String, Object> started(long id) {
        return Map.of("type", "started", "id", id);
    }

    /** A result event: a {@link RunReport}, or a forged report's fields as a map. */
    private static Map<String, Object> result(long id, Object report, boolean recycle) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", "result");
        event.put("id", id);
        event.put("report", report);
        event.put("recycle", recycle);
        return event;
    }

    private void send(Map<String, Object> event) {
        writeLine(WireCodec.encode(event));
    }

    private void writeLine(String line) {
        try {
            synchronized (events) {
                events.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                events.flush();
            }
        } catch (IOException e) {
            // ended: the supervisor reads no more
        }
    }

    /** One line of {@link WireCodec#MAX_LINE_BYTES} and a byte more, written in chunks. */
    private void flood() {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'a');
        try {
            synchronized (events) {
                for (long left = WireCodec.MAX_LINE_BYTES + 1L; left > 0; left -= chunk.length) {
                    events.write(chunk, 0, (int) Math.min(chunk.length, left));
                }
                events.write('\n');
                events.flush();
            }
        } catch (IOException e) {
            // killed while writing
        }
    }

    /** Exits with this code, once: its streams close as a process's do when it exits. */
    private void exit(int code) {
        if (!exit.complete(code)) {
            return;
        }
        stdout.closeWritingEnd();
        stderr.closeWritingEnd();
        stdin.closeReadingEnd();
    }

    @Override
    public OutputStream getOutputStream() {
        return stdin.out;
    }

    @Override
    public InputStream getInputStream() {
        return stdout.in;
    }

    @Override
    public InputStream getErrorStream() {
        return stderr.in;
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            return exit.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int exitValue() {
        if (!exit.isDone()) {
            throw new IllegalThreadStateException(name + " is running");
        }
        return exit.join();
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public void destroy() {
        exit(TERMINATED);
    }

    @Override
    public Process destroyForcibly() {
        exit(KILLED);
        return this;
    }

    @Override
    public boolean supportsNormalTermination() {
        return true;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public Stream<ProcessHandle> children() {
        return Stream.empty();
    }

    @Override
    public Stream<ProcessHandle> descendants() {
        return Stream.empty();
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return exit.thenApply(code -> this);
    }

    @Override
    public String toString() {
        return name;
    }
}
