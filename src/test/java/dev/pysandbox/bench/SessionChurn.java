package dev.pysandbox.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

/**
 * Sessions created and evicted for a while on one worker of 256 MB holding at most 16 sessions (issue 25's
 * target: no OutOfMemoryError, the heap after a full collection within 10% of its value after warm-up). Round
 * after round, 16 new sessions of 15 calls each, every call defining a function of new text, each round evicting
 * the one before; after each round the worker's heap after a full collection, as it measures it for
 * {@code inspect_session}. Prints one Markdown line per five minutes and a verdict. Run by bench/session-churn.
 */
public final class SessionChurn {
    private static final int SESSIONS = 16;
    private static final int CALLS = 15;

    private SessionChurn() {
    }

    public static void main(String[] args) {
        Path launcher = Path.of(args[0]);
        Duration length = Duration.ofMinutes(Long.parseLong(args[1]));
        ServerParameters parameters = ServerParameters.builder(launcher.toString()).args("--workers=1",
                "--worker.heap=256m", "--sessions.per-worker=16", "--worker.max-calls=1000000").build();
        StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
        List<String> lost = new ArrayList<>();
        transport.setStdErrorHandler(line -> {
            if (line.contains("ran out of memory") || line.contains("stopped unexpectedly")) {
                lost.add(line);
            }
        });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(240)).build();
        client.initialize();
        long end = System.nanoTime() + length.toNanos();
        long began = System.nanoTime();
        List<Long> heaps = new ArrayList<>();
        int serial = 0;
        int calls = 0;
        int failed = 0;
        long nextLine = 0;
        System.out.println("| minutes | rounds | calls | heap after a full collection, MB (last round) |");
        System.out.println("| --- | --- | --- | --- |");
        while (System.nanoTime() < end) {
            List<String> ids = new ArrayList<>();
            for (int s = 0; s < SESSIONS; s++) {
                ids.add("churn-" + serial++);
            }
            for (int call = 0; call < CALLS; call++) {
                for (String id : ids) {
                    Map<?, ?> result = (Map<?, ?>) client.callTool(new CallToolRequest("execute_code", Map.of(
                            "language", "python", "session_id", id, "code", "# " + id + " " + call
                                    + "\nimport json, statistics\nn = globals().get('n', 0) + 1\ndef f_" + call
                                    + "(x):\n    return x * " + call + "\nvalues = [f_" + call
                                    + "(i) for i in range(200)]\nprint(n, statistics.mean(values), json.dumps({'n': n}))\n")))
                            .structuredContent();
                    calls++;
                    if (!"success".equals(result.get("status"))) {
                        failed++;
                    }
                }
            }
            Map<?, ?> report = (Map<?, ?>) client.callTool(new CallToolRequest("inspect_session",
                    Map.of("session_id", ids.get(SESSIONS - 1)))).structuredContent();
            Map<?, ?> memory = (Map<?, ?>) report.get("memory");
            heaps.add(((Number) memory.get("worker_heap_used_bytes")).longValue() >> 20);
            double minutes = (System.nanoTime() - began) / 60e9;
            if (minutes >= nextLine) {
                System.out.printf("| %.1f | %d | %d | %d |%n", minutes, heaps.size(), calls, heaps.get(heaps.size() - 1));
                nextLine += 5;
            }
        }
        client.closeGracefully();
        long warm = heaps.get(Math.min(1, heaps.size() - 1));
        long last = heaps.get(heaps.size() - 1);
        long most = heaps.stream().mapToLong(Long::longValue).max().orElse(0);
        System.out.printf("%nHeap after warm-up (round 2) %d MB, at the end %d MB (%+.1f%%), most %d MB; %d calls, %d"
                + " not success; worker lost: %s%n", warm, last, 100.0 * (last - warm) / warm, most, calls, failed,
                lost.isEmpty() ? "never" : lost);
        System.exit(last <= warm * 1.10 && lost.isEmpty() && failed == 0 ? 0 : 1);
    }
}
