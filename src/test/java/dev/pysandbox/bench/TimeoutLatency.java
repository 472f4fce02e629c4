package dev.pysandbox.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

/**
 * How long after its timeout a runaway call is answered, for each way code can refuse to stop. The
 * promise is "within timeout + 2 s in every case"; this measures it through the real server and client.
 * Prints a Markdown table on stdout. Run by bench/timeout-latency.
 *
 * <p>Every one of these payloads costs its worker (a timed-out worker is replaced), so each run waits for
 * the replacement to report ready before the next starts: otherwise the next run would also time how long a
 * new worker takes to start, which is a different number, reported in its own column.
 */
public final class TimeoutLatency {
    private static final int TIMEOUT_SECONDS = 2;
    private static final int RUNS = 5;
    private static final String READY_LINE = " is ready on ";

    private TimeoutLatency() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path launcher = Path.of(args[0]);
        Map<String, String> payloads = new LinkedHashMap<>();
        payloads.put("busy loop `while True: pass`", "while True:\n    pass");
        payloads.put("`time.sleep(60)`", "import time\ntime.sleep(60)");
        payloads.put("loop catching every exception", "while True:\n    try:\n        while True: pass\n    except BaseException:\n        pass");
        payloads.put("uninterruptible builtin `7 ** (10 ** 8)`", "x = 7 ** (10 ** 8)");
        Semaphore workersReady = new Semaphore(0);
        ServerParameters parameters = ServerParameters.builder(launcher.toString()).args("--workers=2").build();
        StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> {
            if (line.contains(READY_LINE)) {
                workersReady.release();
            }
        });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(240)).build();
        client.initialize();
        awaitReady(workersReady, 2);
        System.out.println("| payload (timeout " + TIMEOUT_SECONDS + " s) | status | past timeout, median | past timeout, worst "
                + "| worker's own time past timeout, worst | replacement worker ready after, median |");
        System.out.println("| --- | --- | --- | --- | --- | --- |");
        for (Map.Entry<String, String> payload : payloads.entrySet()) {
            List<Double> over = new ArrayList<>();
            List<Double> workerOver = new ArrayList<>();
            List<Double> replacement = new ArrayList<>();
            String status = "";
            for (int i = 0; i < RUNS; i++) {
                workersReady.drainPermits();
                long start = System.nanoTime();
                Map<?, ?> result = call(client, payload.getValue());
                long answered = System.nanoTime();
                over.add((answered - start) / 1e9 - TIMEOUT_SECONDS);
                workerOver.add(((Number) result.get("execution_time")).doubleValue() - TIMEOUT_SECONDS);
                status = (String) result.get("status");
                awaitReady(workersReady, 1);
                replacement.add((System.nanoTime() - answered) / 1e9);
                // READY comes with the first context built; give the worker a moment to build its spare ones.
                Thread.sleep(1_000);
                call(client, "pass");
            }
            System.out.printf("| %s | %s | %.2f s | %.2f s | %.2f s | %.1f s |%n", payload.getKey(), status,
                    median(over), worst(over), worst(workerOver), median(replacement));
        }
        client.closeGracefully();
    }

    private static void awaitReady(Semaphore workersReady, int count) throws InterruptedException {
        if (!workersReady.tryAcquire(count, 120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("workers did not report ready within 120 s");
        }
    }

    private static double median(List<Double> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }

    private static double worst(List<Double> values) {
        return values.stream().max(Double::compare).orElseThrow();
    }

    private static Map<?, ?> call(McpSyncClient client, String code) {
        Object content = client.callTool(new CallToolRequest("execute_code",
                Map.of("language", "python", "code", code, "timeout", TIMEOUT_SECONDS))).structuredContent();
        return (Map<?, ?>) content;
    }
}
