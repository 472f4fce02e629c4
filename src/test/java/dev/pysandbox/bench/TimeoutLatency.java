package dev.pysandbox.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

/**
 * How long after sending a runaway call is answered, for each way code can refuse to stop, and what the
 * timeout costs the calls after it. Measured through the real server and client; prints Markdown tables on
 * stdout. Run by bench/timeout-latency.
 *
 * <p>Two tables. Just started: a new server, five runaway calls back to back sent as soon as the client is
 * initialised (the workers are still starting), then a probe call; twice. Warm: one server with two workers; for each
 * payload, a probe call, the payload, the same probe again. A worker that asked to be replaced (uninterruptible
 * code) is waited for before the probe after it, and how long that took is its own column: otherwise the probe
 * would time a worker's start, which is a different number.
 */
public final class TimeoutLatency {
    private static final int TIMEOUT_SECONDS = 2;
    private static final int RUNS = 5;
    /** How many servers the just-started table starts, one after another. */
    private static final int SERVERS = 2;
    private static final String READY_LINE = " is ready on ";
    private static final String REPLACED_LINE = " asked to be replaced after call ";
    private static final int PROBE_TIMEOUT_SECONDS = 120;
    private static final String RUNAWAY = "while True:\n    pass";
    /** Agent-like code whose speed depends on a warm worker (its imports, its compiled code). */
    private static final String PROBE = "import json, re, collections\n"
            + "text = json.dumps([{'k': i, 'v': str(i) * 3} for i in range(500)])\n"
            + "print(collections.Counter(re.findall(r'\\d', text)).most_common(1))";

    private TimeoutLatency() {
    }

    /** A server and client, with its workers' ready and replaced lines counted. */
    private record Server(McpSyncClient client, Semaphore ready, AtomicInteger replaced) implements AutoCloseable {
        static Server start(Path launcher, String... flags) {
            Semaphore ready = new Semaphore(0);
            AtomicInteger replaced = new AtomicInteger();
            ServerParameters parameters = ServerParameters.builder(launcher.toString()).args(flags).build();
            StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
            transport.setStdErrorHandler(line -> {
                if (line.contains(READY_LINE)) {
                    ready.release();
                }
                if (line.contains(REPLACED_LINE)) {
                    replaced.incrementAndGet();
                }
            });
            McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(240)).build();
            client.initialize();
            return new Server(client, ready, replaced);
        }

        Map<?, ?> call(String code) {
            return call(code, TIMEOUT_SECONDS);
        }

        Map<?, ?> call(String code, int timeoutSeconds) {
            Object content = client.callTool(new CallToolRequest("execute_code",
                    Map.of("language", "python", "code", code, "timeout", timeoutSeconds))).structuredContent();
            return (Map<?, ?>) content;
        }

        /** Seconds from sending the probe to its answer; its timeout is generous, so that it never costs a worker. */
        double probe() {
            long start = System.nanoTime();
            Map<?, ?> result = call(PROBE, PROBE_TIMEOUT_SECONDS);
            if (!"success".equals(result.get("status"))) {
                throw new IllegalStateException("the probe failed: " + result);
            }
            return (System.nanoTime() - start) / 1e9;
        }

        /** Seconds from sending {@code code} to its answer. */
        double time(String code) {
            long start = System.nanoTime();
            call(code);
            return (System.nanoTime() - start) / 1e9;
        }

        void awaitReady(int count) throws InterruptedException {
            if (!ready.tryAcquire(count, 120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("workers did not report ready within 120 s");
            }
        }

        @Override
        public void close() {
            client.closeGracefully();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Path launcher = Path.of(args[0]);
        justStarted(launcher);
        warm(launcher);
    }

    /** Runaway calls back to back on a server just started, as a client that starts it and calls at once sees them. */
    private static void justStarted(Path launcher) {
        System.out.println("| just-started server, default configuration, `while True: pass` with timeout "
                + TIMEOUT_SECONDS + " s, back to back | sent to answered, call by call | probe after them "
                + "| workers replaced |");
        System.out.println("| --- | --- | --- | --- |");
        for (int server = 1; server <= SERVERS; server++) {
            try (Server started = Server.start(launcher)) {
                List<Double> answered = new ArrayList<>();
                for (int i = 0; i < RUNS; i++) {
                    answered.add(started.time(RUNAWAY));
                }
                double probe = started.probe();
                System.out.printf("| server %d | %s | %.2f s | %d |%n", server, seconds(answered), probe,
                        started.replaced().get());
            }
        }
        System.out.println();
    }

    private static void warm(Path launcher) throws InterruptedException {
        Map<String, String> payloads = new LinkedHashMap<>();
        payloads.put("busy loop `while True: pass`", RUNAWAY);
        payloads.put("`time.sleep(60)`", "import time\ntime.sleep(60)");
        payloads.put("loop catching every exception", "while True:\n    try:\n        while True: pass\n    except BaseException:\n        pass");
        payloads.put("uninterruptible builtin `7 ** (10 ** 8)`", "x = 7 ** (10 ** 8)");
        try (Server server = Server.start(launcher, "--workers=2")) {
            server.awaitReady(2);
            for (int i = 0; i < 3; i++) {
                server.probe(); // both workers have run the probe once
            }
            System.out.println("| payload (timeout " + TIMEOUT_SECONDS + " s, warm server, 2 workers) | status "
                    + "| past timeout, median | past timeout, worst | worker's own time past timeout, worst "
                    + "| runs that replaced a worker | replacement ready after, median | probe before, median "
                    + "| probe after, median |");
            System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
            for (Map.Entry<String, String> payload : payloads.entrySet()) {
                List<Double> over = new ArrayList<>();
                List<Double> workerOver = new ArrayList<>();
                List<Double> replacement = new ArrayList<>();
                List<Double> before = new ArrayList<>();
                List<Double> after = new ArrayList<>();
                int replaced = 0;
                String status = "";
                for (int i = 0; i < RUNS; i++) {
                    before.add(server.probe());
                    server.ready().drainPermits();
                    int replacedNow = server.replaced().get();
                    long start = System.nanoTime();
                    Map<?, ?> result = server.call(payload.getValue());
                    long done = System.nanoTime();
                    over.add((done - start) / 1e9 - TIMEOUT_SECONDS);
                    workerOver.add(((Number) result.get("execution_time")).doubleValue() - TIMEOUT_SECONDS);
                    status = (String) result.get("status");
                    Thread.sleep(200); // the server's log line saying so may come just after the answer
                    if (server.replaced().get() > replacedNow) {
                        replaced++;
                        server.awaitReady(1);
                        replacement.add((System.nanoTime() - done) / 1e9);
                        // READY comes with the first context built; give the worker a moment to build its spare ones.
                        Thread.sleep(1_000);
                    }
                    after.add(server.probe());
                }
                System.out.printf("| %s | %s | %.2f s | %.2f s | %.2f s | %d of %d | %s | %.2f s | %.2f s |%n",
                        payload.getKey(), status, median(over), worst(over), worst(workerOver),
                        replaced, RUNS,
                        replacement.isEmpty() ? "-" : String.format("%.1f s", median(replacement)),
                        median(before), median(after));
            }
        }
    }

    /** The values in seconds, one decimal each, in their order (other benchmarks' tables use it too). */
    static String seconds(List<Double> values) {
        return String.join(", ", values.stream().map(v -> String.format("%.1f", v)).toList()) + " s";
    }

    private static double median(List<Double> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }

    private static double worst(List<Double> values) {
        return values.stream().max(Double::compare).orElseThrow();
    }
}
