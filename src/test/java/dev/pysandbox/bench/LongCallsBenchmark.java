package dev.pysandbox.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

/**
 * Long CPU-bound calls with and without a JIT worker for their twins (worker.jit-workers), each call new text, the
 * server warm and idle (its workers say they are warmed up), each call right after CPython (the {@code python3}
 * binary) ran the same text; a call that crosses the twin's delay but finishes first on the interpreter, to measure
 * what sharing the cores with its twin costs it; {@code fib(27)} sent as the same text every call; and a session
 * that computes, which moves to the JIT worker instead of getting twins. Run by
 * bench/long-calls; prints a Markdown table on stdout.
 */
public final class LongCallsBenchmark {
    private static final int RUNS = 4;
    private static final int SESSION_CALLS = 8;
    /** How long a server is left alone once its workers say they are warm, so that nothing of theirs still runs. */
    private static final Duration SETTLE = Duration.ofSeconds(5);
    private static final String QUEENS = """
            import sys
            def solve(n):
                count = 0
                cols, d1, d2 = set(), set(), set()
                def place(r):
                    nonlocal count
                    if r == n:
                        count += 1
                        return
                    for c in range(n):
                        if c in cols or r - c in d1 or r + c in d2:
                            continue
                        cols.add(c); d1.add(r - c); d2.add(r + c)
                        place(r + 1)
                        cols.discard(c); d1.discard(r - c); d2.discard(r + c)
                place(0)
                return count
            """;
    /** CPython 4.4-4.6 s on the 2-core machine: the "3-5 s" search. */
    private static final String SEARCH = QUEENS + "print(solve(13), sys.implementation.version[:2])\n";
    /** CPython about 0.6 s, the interpreter 3-4 s: past the twin's delay, done before the twin can catch up. */
    private static final String CROSSING = QUEENS + "print(solve(11), solve(11), sys.implementation.version[:2])\n";
    /** The same text every call: the warm {@code fib(27)}, CPython about 0.3 s. */
    private static final String FIB = """
            import sys
            def fib(n):
                return n if n < 2 else fib(n - 1) + fib(n - 2)
            print(fib(27), sys.implementation.version[:2])
            """;
    /** A session's computing call after {@link #QUEENS} defined {@code solve}: CPython about 1 s, the interpreter 4-6 s. */
    private static final String IN_SESSION = "print(solve(12))\n";
    /** What a run on the JIT worker's GraalPy (25.0) prints last: the twin answered. */
    private static final String ANSWERED_BY_A_TWIN = "(25, 0)\n";
    private static final AtomicInteger TWINS_STARTED = new AtomicInteger();

    private LongCallsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path launcher = Path.of(args[0]);
        Map<String, List<String>> configurations = new LinkedHashMap<>();
        configurations.put("no JIT worker (`--worker.jit-workers=0`)", List.of("--worker.jit-workers=0"));
        configurations.put("twins on a JIT worker (`--worker.jit-workers=1`; `auto` starts none on two cores)",
                List.of("--worker.jit-workers=1"));
        System.out.println("| configuration | code (each call new text) | sent to answered, call by call | CPython, call by call "
                + "| median ratio | twins started | answered by the twin, or the session's move |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
        AtomicInteger nonce = new AtomicInteger();
        for (Map.Entry<String, List<String>> configuration : configurations.entrySet()) {
            boolean jit = configuration.getValue().contains("--worker.jit-workers=1");
            try (McpSyncClient client = start(launcher, configuration.getValue(), jit)) {
                Thread.sleep(SETTLE.toMillis());
                row(client, configuration.getKey(), "queens(13), CPython 3-5 s", SEARCH, nonce);
                row(client, configuration.getKey(), "queens(11) twice, crosses the delay", CROSSING, nonce);
                row(client, configuration.getKey(), "`fib(27)`, the same text every call", FIB, null);
                sessionRow(client, configuration.getKey(), nonce);
            }
        }
    }

    /** @param nonce numbers the calls' fresh comment lines; null to send the same text every call */
    private static void row(McpSyncClient client, String configuration, String name, String code, AtomicInteger nonce)
            throws IOException, InterruptedException {
        List<Double> server = new ArrayList<>();
        List<Double> cpython = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        int twinsBefore = TWINS_STARTED.get();
        int answeredByTwins = 0;
        for (int i = 0; i < RUNS; i++) {
            String text = nonce == null ? code : "# call " + nonce.incrementAndGet() + " " + System.nanoTime() + "\n" + code;
            double reference = cpython(text);
            long start = System.nanoTime();
            Map<?, ?> result = call(client, Map.of("language", "python", "code", text, "timeout", 120));
            double seconds = (System.nanoTime() - start) / 1e9;
            if (String.valueOf(result.get("stdout")).endsWith(ANSWERED_BY_A_TWIN)) {
                answeredByTwins++;
            }
            server.add(seconds);
            cpython.add(reference);
            ratios.add(seconds / reference);
        }
        System.out.printf("| %s | %s | %s | %s | %.2fx | %d | %d |%n", configuration, name, TimeoutLatency.seconds(server),
                TimeoutLatency.seconds(cpython), SpeedBenchmark.median(ratios), TWINS_STARTED.get() - twinsBefore, answeredByTwins);
    }

    /**
     * A session that computes: one call defines {@code solve}, then {@link #SESSION_CALLS} calls run {@code solve(12)},
     * each new text; with a JIT worker the session moves there before the call after the first two that ran past the
     * delay. CPython runs each call's text with the definition in front.
     */
    private static void sessionRow(McpSyncClient client, String configuration, AtomicInteger nonce)
            throws IOException, InterruptedException {
        String session = "computing-" + System.nanoTime();
        call(client, Map.of("language", "python", "code", QUEENS, "session_id", session));
        List<Double> server = new ArrayList<>();
        List<Double> cpython = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        String moved = "stayed";
        for (int i = 1; i <= SESSION_CALLS; i++) {
            String text = "# call " + nonce.incrementAndGet() + " " + System.nanoTime() + "\n" + IN_SESSION;
            double reference = cpython(QUEENS + text);
            long start = System.nanoTime();
            Map<?, ?> result = call(client, Map.of("language", "python", "code", text, "timeout", 120,
                    "session_id", session));
            double seconds = (System.nanoTime() - start) / 1e9;
            if (result.get("session_rebuilt") instanceof Number calls) {
                moved = "moved before call " + i + " (" + calls + " calls ran again)";
            }
            server.add(seconds);
            cpython.add(reference);
            ratios.add(seconds / reference);
        }
        System.out.printf("| %s | a session: `solve` defined, then %d calls of `solve(12)` | %s | %s | %.2fx | | %s |%n",
                configuration, SESSION_CALLS, TimeoutLatency.seconds(server), TimeoutLatency.seconds(cpython),
                SpeedBenchmark.median(ratios), moved);
    }

    private static Map<?, ?> call(McpSyncClient client, Map<String, Object> arguments) {
        Map<?, ?> result = (Map<?, ?>) client.callTool(new CallToolRequest("execute_code", arguments)).structuredContent();
        if (!"success".equals(result.get("status"))) {
            throw new IllegalStateException("the call failed: " + result);
        }
        return result;
    }

    private static McpSyncClient start(Path launcher, List<String> flags, boolean jit) throws InterruptedException {
        Object ready = new Object();
        AtomicInteger warmed = new AtomicInteger();
        ServerParameters parameters = ServerParameters.builder(launcher.toString()).args(flags).build();
        StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> {
            if (line.contains(": warmed up: ")) {
                warmed.incrementAndGet();
            }
            if (line.contains("its twin starts on")) {
                TWINS_STARTED.incrementAndGet();
            }
        });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(300)).build();
        client.initialize();
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        int workers = jit ? 3 : 2; // two general workers on two cores, and the JIT worker
        while (warmed.get() < workers) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the workers did not warm up within 10 minutes");
            }
            synchronized (ready) {
                ready.wait(200);
            }
        }
        return client;
    }

    private static double cpython(String code) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process process = new ProcessBuilder("python3", "-c", code).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("python3 failed: " + output);
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
