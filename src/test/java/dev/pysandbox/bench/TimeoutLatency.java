package dev.pysandbox.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 */
public final class TimeoutLatency {
    private static final int TIMEOUT_SECONDS = 2;
    private static final int RUNS = 5;

    private TimeoutLatency() {
    }

    public static void main(String[] args) {
        Path launcher = Path.of(args[0]);
        Map<String, String> payloads = new LinkedHashMap<>();
        payloads.put("busy loop `while True: pass`", "while True:\n    pass");
        payloads.put("`time.sleep(60)`", "import time\ntime.sleep(60)");
        payloads.put("loop catching every exception", "while True:\n    try:\n        while True: pass\n    except BaseException:\n        pass");
        payloads.put("uninterruptible builtin `7 ** (10 ** 8)` (worker killed)", "x = 7 ** (10 ** 8)");
        ServerParameters parameters = ServerParameters.builder(launcher.toString()).args("--workers=2").build();
        StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> { });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(240)).build();
        client.initialize();
        call(client, "pass"); // warm-up: both workers ready
        call(client, "pass");
        System.out.println("| payload (timeout " + TIMEOUT_SECONDS + " s) | status | median past timeout | worst past timeout |");
        System.out.println("| --- | --- | --- | --- |");
        for (Map.Entry<String, String> payload : payloads.entrySet()) {
            List<Double> over = new ArrayList<>();
            String status = "";
            for (int i = 0; i < RUNS; i++) {
                long start = System.nanoTime();
                Map<?, ?> result = call(client, payload.getValue());
                over.add((System.nanoTime() - start) / 1e9 - TIMEOUT_SECONDS);
                status = (String) result.get("status");
                call(client, "pass"); // next run starts on a ready worker
            }
            over.sort(Double::compare);
            System.out.printf("| %s | %s | %.2f s | %.2f s |%n", payload.getKey(), status, over.get(RUNS / 2), over.get(RUNS - 1));
        }
        client.closeGracefully();
    }

    private static Map<?, ?> call(McpSyncClient client, String code) {
        Object content = client.callTool(new CallToolRequest("execute_code",
                Map.of("language", "python", "code", code, "timeout", TIMEOUT_SECONDS))).structuredContent();
        return (Map<?, ?>) content;
    }
}
