package dev.pysandbox.mcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * A real McpSyncServer on {@link StdioServerTransport}, driven through in-memory stdin/stdout
 * with raw JSON-RPC lines, plus two tools that report what happened inside them.
 */
final class RunningServer implements AutoCloseable {

    static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
    static final Duration WAIT = Duration.ofSeconds(10);

    final FeedInputStream stdin = new FeedInputStream();
    final LineCollector stdout = new LineCollector(JSON);
    final StdioServerTransport transport;
    final McpSyncServer server;
    /** Tags of sleep calls whose handler started. */
    final LinkedBlockingQueue<String> sleepStarted = new LinkedBlockingQueue<>();
    /** Tags of sleep calls whose handler thread was interrupted. */
    final LinkedBlockingQueue<String> sleepInterrupted = new LinkedBlockingQueue<>();

    RunningServer() {
        this(1024 * 1024, Duration.ofSeconds(10));
    }

    RunningServer(int maxLineBytes, Duration drainTimeout) {
        transport = new StdioServerTransport(JSON, stdin, stdout, maxLineBytes, drainTimeout);
        server = McpServer.sync(transport)
                .serverInfo("transport-test", "0.0.1")
                .capabilities(ServerCapabilities.builder().tools(true).logging().build())
                .tools(sleepTool(), echoTool())
                .build();
    }

    private SyncToolSpecification sleepTool() {
        Tool tool = Tool.builder("sleep", JSON, """
                {"type":"object","properties":{"ms":{"type":"integer","minimum":0},"tag":{"type":"string"}},
                 "required":["ms"]}""").description("Sleeps for ms milliseconds").build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            long ms = ((Number) request.arguments().get("ms")).longValue();
            String tag = String.valueOf(request.arguments().getOrDefault("tag", ""));
            sleepStarted.add(tag);
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                sleepInterrupted.add(tag);
                Thread.currentThread().interrupt();
                return CallToolResult.builder().addTextContent("interrupted " + tag).isError(true).build();
            }
            return CallToolResult.builder().addTextContent("slept " + ms).build();
        }).build();
    }

    private SyncToolSpecification echoTool() {
        Tool tool = Tool.builder("echo", JSON, """
                {"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}""")
                .description("Returns its text; sends one progress notification when asked to").build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            String text = (String) request.arguments().get("text");
            Object token = request.meta() == null ? null : request.meta().get("progressToken");
            if (token != null) {
                exchange.progressNotification(new ProgressNotification(token, 1.0, 1.0, text));
            }
            return CallToolResult.builder().addTextContent(text).build();
        }).build();
    }

    void send(String line) {
        stdin.writeLine(line);
    }

    static String line(Map<String, Object> message) {
        try {
            return JSON.writeValueAsString(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String request(Object id, String method, Map<String, Object> params) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("id", id);
        message.put("method", method);
        if (params != null) {
            message.put("params", params);
        }
        return line(message);
    }

    static String notification(String method, Map<String, Object> params) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        if (params != null) {
            message.put("params", params);
        }
        return line(message);
    }

    static String toolCall(Object id, String tool, Map<String, Object> arguments) {
        return request(id, "tools/call", Map.of("name", tool, "arguments", arguments));
    }

    /** The next message the server writes; fails after {@link #WAIT}. */
    Map<String, Object> next() throws InterruptedException {
        Map<String, Object> message = stdout.messages.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        if (message == null) {
            fail("no message from the server within " + WAIT + "; garbage=" + stdout.garbage);
        }
        return message;
    }

    /** Skips anything else (notifications, other responses) until the response to {@code id}. */
    Map<String, Object> awaitResponse(Object id) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Object> message = stdout.messages.poll(100, TimeUnit.MILLISECONDS);
            if (message != null && isResponseTo(message, id)) {
                return message;
            }
        }
        return fail("no response to id " + id + " within " + WAIT);
    }

    String initialize(String protocolVersion) throws InterruptedException {
        send(request("init", "initialize", Map.of("protocolVersion", protocolVersion, "capabilities", Map.of(),
                "clientInfo", Map.of("name", "raw-test-client", "version", "1"))));
        Map<String, Object> response = awaitResponse("init");
        send(notification("notifications/initialized", null));
        return (String) result(response).get("protocolVersion");
    }

    void initialize() throws InterruptedException {
        initialize("2025-11-25");
    }

    /** Pings and checks the answer: proves the server is still reading and writing. */
    void assertAlive(String pingId) throws InterruptedException {
        send(request(pingId, "ping", null));
        assertEquals(Map.of(), result(awaitResponse(pingId)));
    }

    static boolean isResponseTo(Map<String, Object> message, Object id) {
        return !message.containsKey("method") && sameId(message.get("id"), id);
    }

    static boolean sameId(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return x.doubleValue() == y.doubleValue();
        }
        return a == null ? b == null : a.equals(b);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> result(Map<String, Object> response) {
        Object result = response.get("result");
        assertNotNull(result, () -> "expected a result in " + response);
        return (Map<String, Object>) result;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> error(Map<String, Object> response) {
        Object error = response.get("error");
        assertNotNull(error, () -> "expected an error in " + response);
        return (Map<String, Object>) error;
    }

    @SuppressWarnings("unchecked")
    static String firstText(Map<String, Object> response) {
        List<Map<String, Object>> content = (List<Map<String, Object>>) result(response).get("content");
        return (String) content.get(0).get("text");
    }

    @Override
    public void close() throws InterruptedException {
        stdin.end();
        try {
            if (!transport.awaitTermination(WAIT)) {
                fail("transport did not terminate within " + WAIT + " after stdin EOF");
            }
        } finally {
            server.close();
        }
    }
}
