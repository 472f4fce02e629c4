package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * Remote mode end to end: the real server with {@code --transport=http} and bearer tokens, driven by the MCP
 * Java SDK's Streamable HTTP client, and by raw HTTP for what a well-behaved client never sends. One server
 * serves every test; the last one stops it with SIGTERM to watch it drain.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HttpTransportIT {
    private static final String ALICE = "alice-token-7f3a";
    private static final String BOB = "bob-token-91c2";
    private static final String TAG = "-Dpysandbox.it=http-transport";
    private static final int MAX_REQUEST_BYTES = 200_000;

    private HttpSandboxServer server;
    private McpSyncClient alice;
    private final List<ProgressNotification> progress = new CopyOnWriteArrayList<>();

    @BeforeAll
    void start() throws Exception {
        server = HttpSandboxServer.start(Map.of("alice", ALICE, "bob", BOB), "--workers=2",
                "--http.keepalive-seconds=1", "--progress.interval-seconds=1",
                "--http.max-request-bytes=" + MAX_REQUEST_BYTES, "--worker.jvm-options=" + TAG);
        alice = server.client(ALICE, spec -> spec.progressConsumer(progress::add));
    }

    @AfterAll
    void stop() throws Exception {
        if (alice != null) {
            alice.closeGracefully();
        }
        server.close();
    }

    private static Map<String, Object> python(String code, Object... more) {
        Map<String, Object> arguments = new java.util.HashMap<>(Map.of("language", "python", "code", code));
        for (int i = 0; i < more.length; i += 2) {
            arguments.put((String) more[i], more[i + 1]);
        }
        return arguments;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(CallToolResult result) {
        assertNotNull(result.structuredContent(), () -> "no structured content: " + result);
        return (Map<String, Object>) result.structuredContent();
    }

    private static Map<String, Object> execute(McpSyncClient client, Map<String, Object> arguments) {
        return structured(client.callTool(new CallToolRequest("execute_code", arguments)));
    }

    @Test
    void bothToolsAnswerOverHttp() {
        List<String> names = alice.listTools().tools().stream().map(Tool::name).toList();
        assertTrue(names.containsAll(List.of("execute_code", "run_python", "validate_code")), names::toString);
        Map<String, Object> result = execute(alice, python("print(6 * 7)"));
        assertEquals("success", result.get("status"));
        assertEquals("42\n", result.get("stdout"));
        assertFalse(result.containsKey("session_new"), "a call without a session says nothing about one");
        CallToolResult run = alice.callTool(new CallToolRequest("run_python", Map.of("code", "print('hi')")));
        assertEquals("Stdout:\nhi\n\nStderr:\n", SandboxServer.text(run));
    }

    @Test
    void chartsComeBackAsImagesAndTheResultViewIsServedOverHttp() {
        CallToolResult answer = alice.callTool(new CallToolRequest("execute_code",
                python("import matplotlib.pyplot as plt\nplt.bar(['a', 'b'], [3, 1])\nplt.show()")));
        assertEquals(1, answer.content().stream().filter(c -> c instanceof ImageContent).count(), answer::toString);
        assertEquals(1, ((List<?>) structured(answer).get("images")).size());
        TextResourceContents view = (TextResourceContents) alice.readResource(
                new ReadResourceRequest("ui://python-sandbox/result.html")).contents().get(0);
        assertEquals("text/html;profile=mcp-app", view.mimeType());
        Tool execute = alice.listTools().tools().stream().filter(t -> t.name().equals("execute_code")).findFirst()
                .orElseThrow();
        assertEquals(Map.of("resourceUri", view.uri()), execute.meta().get("ui"));
    }

    /**
     * Failure guarded against: an answer begun before it is whole. A call's answer that is the first thing the
     * server sends leaves as one response with its length: a replica killed before it has sent nothing, so HAProxy
     * may send the call to another (ScaleOutIT), and a client never gets headers without their answer. With the
     * headers flushed first, CI saw a call cut that way at a kill.
     */
    @Test
    void anAnswerWithNothingBeforeItLeavesWholeWithItsLength() throws Exception {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
                + "\"arguments\":{\"language\":\"python\",\"code\":\"print(6 * 7)\"}}}";
        HttpResponse<String> response = server.post(call, "Authorization", "Bearer " + ALICE);
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"),
                response.headers().map()::toString);
        assertEquals(java.util.OptionalLong.of(response.body().getBytes(StandardCharsets.UTF_8).length),
                response.headers().firstValueAsLong("Content-Length"), response.headers().map()::toString);
        assertFalse(response.headers().firstValue("Transfer-Encoding").isPresent(), response.headers().map()::toString);
        assertTrue(response.body().contains("42\\n"), response.body());
    }

    /** Issue 22: over HTTP this call once ran the server out of heap and killed the call's thread; the client hung. */
    @Test
    void attackAFortyMegabyteExceptionMessageIsAnsweredOverHttp() {
        Map<String, Object> result = execute(alice,
                python("import sys, io\nsys.stderr = io.StringIO()\nraise Exception('x' * 40_000_000)", "timeout", 20));
        assertEquals("execution_error", result.get("status"), result::toString);
        assertTrue(((String) result.get("error_message")).endsWith("[cut at 4096 characters]"));
        assertEquals("success", execute(alice, python("print(1)")).get("status"));
    }

    @Test
    void sessionIdIsMarkedForLoadBalancersToRouteOn() {
        Tool tool = alice.listTools().tools().stream().filter(t -> t.name().equals("execute_code")).findFirst().orElseThrow();
        Map<?, ?> properties = (Map<?, ?>) tool.inputSchema().get("properties");
        Map<?, ?> sessionId = (Map<?, ?>) properties.get("session_id");
        assertEquals("Session-Id", sessionId.get("x-mcp-header"));
    }

    @Test
    void aSessionSaysWhenItIsNewAndKeepsItsVariables() {
        Map<String, Object> first = execute(alice, python("n = 41", "session_id", "counter"));
        assertEquals(Boolean.TRUE, first.get("session_new"));
        Map<String, Object> second = execute(alice, python("n += 1\nprint(n)", "session_id", "counter"));
        assertEquals("42\n", second.get("stdout"));
        assertEquals(Boolean.FALSE, second.get("session_new"));
    }

    /** Attack: another tenant's memory bombs, in a session and without one, cost workers but not this session. */
    @Test
    void anotherPrincipalsHostileCallsLeaveASessionsStateIntact() {
        assertEquals("success", execute(alice, python("kept = ['a']", "session_id", "keeper")).get("status"));
        McpSyncClient bob = server.client(BOB);
        try {
            String bomb = "blocks = []\nwhile True:\n    blocks.append(bytearray(10 ** 7))";
            assertEquals("execution_error", execute(bob, python(bomb)).get("status"));
            assertEquals("execution_error", execute(bob, python(bomb, "session_id", "bomb")).get("status"));
            Map<String, Object> after = execute(alice, python("kept.append('b')\nprint(kept)", "session_id", "keeper"));
            assertEquals("['a', 'b']\n", after.get("stdout"), after::toString);
            assertEquals(Boolean.FALSE, after.get("session_new"));
        } finally {
            bob.closeGracefully();
        }
    }

    /** Attack: one tenant names another tenant's session id to read its variables. */
    @Test
    void onePrincipalCannotReachAnothersSession() {
        assertEquals("success", execute(alice, python("secret = 'alice-only'", "session_id", "shared")).get("status"));
        McpSyncClient bob = server.client(BOB);
        try {
            Map<String, Object> stolen = execute(bob, python("print(secret)", "session_id", "shared"));
            assertEquals("execution_error", stolen.get("status"), stolen::toString);
            assertTrue(String.valueOf(stolen.get("stderr")).contains("NameError"), stolen::toString);
            assertEquals(Boolean.TRUE, stolen.get("session_new"), "bob's 'shared' is a session of his own");
            assertEquals("alice-only\n", execute(alice, python("print(secret)", "session_id", "shared")).get("stdout"));
        } finally {
            bob.closeGracefully();
        }
    }

    /** /metrics counts a success, a timeout and a lost worker, by language; it needs the same token as /mcp. */
    @Test
    void metricsCountCallsByLanguageAndStatusAndWorkersLostAndAskForAToken() throws Exception {
        assertEquals(401, server.get("/metrics").statusCode());
        assertEquals(401, server.get("/metrics", "Authorization", "Bearer not-a-token").statusCode());
        String before = metrics();
        assertEquals("success", execute(alice, python("print(1)")).get("status"));
        assertEquals("timeout", execute(alice, python("while True:\n    pass", "timeout", 1)).get("status"));
        String bomb = "blocks = []\nwhile True:\n    blocks.append(bytearray(10 ** 7))";
        assertEquals("execution_error", execute(alice, python(bomb)).get("status"));
        Map<String, Object> javascript = execute(alice, Map.of("language", "javascript",
                "code", "console.log([1, 2, 3].map(n => n * n))"));
        assertEquals("[ 1, 4, 9 ]\n", javascript.get("stdout"), javascript::toString);
        String success = "pysandbox_tool_calls_seconds_count{language=\"python\",status=\"success\",tool=\"execute_code\"}";
        String timeout = "pysandbox_tool_calls_seconds_count{language=\"python\",status=\"timeout\",tool=\"execute_code\"}";
        String failed = "pysandbox_tool_calls_seconds_count{language=\"python\",status=\"execution_error\","
                + "tool=\"execute_code\"}";
        String javascriptSuccess = "pysandbox_tool_calls_seconds_count{language=\"javascript\",status=\"success\","
                + "tool=\"execute_code\"}";
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String after = metrics();
        while (sum(after, "pysandbox_worker_replacements_total{") <= sum(before, "pysandbox_worker_replacements_total{")
                && System.nanoTime() < deadline) { // the lost worker is counted as the pool replaces it
            Thread.sleep(200);
            after = metrics();
        }
        assertEquals(1, sum(after, success) - sum(before, success), after);
        assertEquals(1, sum(after, timeout) - sum(before, timeout), after);
        assertEquals(1, sum(after, failed) - sum(before, failed), after);
        assertEquals(1, sum(after, javascriptSuccess) - sum(before, javascriptSuccess), after);
        assertTrue(sum(after, "pysandbox_worker_replacements_total{") > sum(before, "pysandbox_worker_replacements_total{"),
                after);
        assertTrue(sum(after, "pysandbox_tool_calls_seconds_bucket{language=\"python\",status=\"success\",tool=\"execute_code\","
                + "le=\"+Inf\"}")
                >= 1, after);
        for (String gauge : List.of("pysandbox_workers{state=\"idle\"}", "pysandbox_calls_waiting ",
                "pysandbox_sessions_open ", "pysandbox_sessions_ended_total{reason=\"evicted\"}",
                "pysandbox_worker_resident_memory_bytes ", "jvm_memory_used_bytes{")) {
            assertTrue(after.contains("\n" + gauge), gauge + " missing from:\n" + after);
        }
        assertTrue(sum(after, "pysandbox_worker_resident_memory_bytes ") > 50e6, "workers hold at least 50 MB");
    }

    private String metrics() throws Exception {
        HttpResponse<String> response = server.get("/metrics", "Authorization", "Bearer " + ALICE);
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        return response.body();
    }

    /** The sum of the samples whose line starts with {@code prefix} (a name and the start of its labels). */
    private static double sum(String exposition, String prefix) {
        return exposition.lines().filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void requestsWithoutAValidTokenAreRefusedWith401() throws Exception {
        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
        HttpResponse<String> none = server.post(list);
        assertEquals(401, none.statusCode());
        assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), none.headers()::toString);
        assertJsonRpcError(none.body());
        HttpResponse<String> wrong = server.post(list, "Authorization", "Bearer " + ALICE + "x");
        assertEquals(401, wrong.statusCode());
        assertTrue(wrong.headers().firstValue("WWW-Authenticate").orElse("").contains("invalid_token"));
        assertJsonRpcError(wrong.body());
        assertThrows(RuntimeException.class, () -> server.client("not-a-token"));
        assertTrue(server.log.stream().noneMatch(line -> line.contains(ALICE)), "a token must never be logged");
    }

    @Test
    void badRequestsGetJsonRpcErrorsAndNoStackTraces() throws Exception {
        String auth = "Bearer " + ALICE;
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        expectError(server.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\"", "Authorization", auth), 400, -32700);
        expectError(server.post("[" + ping + "]", "Authorization", auth), 400, -32600);
        expectError(server.post("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", "Authorization", auth), 400, -32600);
        expectError(server.post(ping, "Authorization", auth, "MCP-Protocol-Version", "1999-01-01"), 400, -32600);
        // Refused on its Content-Length, before a byte of the body is read (a client that goes on sending a body
        // the server will never read may see its connection reset instead).
        expectError(raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + auth + "\r\nContent-Type: application/json"
                + "\r\nContent-Length: " + (MAX_REQUEST_BYTES + 1) + "\r\n\r\n"), 413, -32600);
        // Without a Content-Length: refused once the bytes read pass the limit.
        String chunk = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(MAX_REQUEST_BYTES) + "\"}}";
        expectError(raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + auth + "\r\nContent-Type: application/json"
                + "\r\nTransfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(chunk.length()) + "\r\n" + chunk
                + "\r\n0\r\n\r\n"), 413, -32600);
        expectError(raw("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: " + auth + "\r\n\r\n"),
                405, -32600);
        expectError(raw("DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: " + auth
                + "\r\n\r\n"), 405, -32600);
        // DNS rebinding: a page that reached the loopback server under another name, or from another site.
        expectError(raw(postText(ping, "Host: evil.example.com", "Authorization: " + auth)), 421, -32600);
        expectError(raw(postText(ping, "Host: 127.0.0.1", "Origin: http://evil.example.com", "Authorization: " + auth)),
                403, -32600);
        assertEquals(200, raw(postText(ping, "Host: localhost:" + server.port, "Origin: http://localhost:3000",
                "Authorization: " + auth)).status());
        // The server is still up and answering.
        assertEquals("success", execute(alice, python("print(1)")).get("status"));
    }

    @Test
    void scriptPathIsNotOfferedToRemoteCallers() {
        CallToolResult result = alice.callTool(new CallToolRequest("run_python", Map.of("scriptPath", "bench/x.py")));
        String text = SandboxServer.text(result);
        assertTrue(text.startsWith("Error: scriptPath and workingDirectory name files of the server's host"), text);
        assertTrue(text.contains("--run-python.root="), "the answer names the setting: " + text);
    }

    /**
     * Attack (issue 22, finding 9): TRACE answered 200 and echoed the request on every path, before the Host
     * and Origin checks; OPTIONS answered 200. Now the MCP endpoint takes POST only, the probes GET and HEAD,
     * and every other request gets a JSON-RPC error, never an echo.
     */
    @Test
    void attackTraceIsRefusedOnEveryPathAndNothingIsEchoed() throws Exception {
        String probe = "X-Echo-Probe: trace-canary-5d1e";
        for (String path : List.of("/mcp", "/healthz", "/readyz", "/other")) {
            for (String method : List.of("TRACE", "OPTIONS", "PATCH")) {
                RawResponse response = raw(method + " " + path + " HTTP/1.1\r\nHost: evil.example.com\r\n" + probe
                        + "\r\nAuthorization: Bearer " + ALICE + "\r\nConnection: close\r\n\r\n");
                String where = method + " " + path;
                assertEquals(path.equals("/other") ? 404 : 405, response.status(), where + ": " + response.text());
                assertFalse(response.text().contains("trace-canary") || response.text().contains(ALICE),
                        where + " echoed the request: " + response.text());
                expectError(response, response.status(), -32600);
            }
        }
        RawResponse head = raw("HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertEquals(405, head.status(), head.text());
        assertTrue(head.text().contains("Allow: POST"), head.text());
        // The probes still answer what load balancers and Kubernetes send.
        assertEquals(200, server.get("/healthz").statusCode());
        assertEquals(200, raw("HEAD /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").status());
        assertEquals("success", execute(alice, python("print(1)")).get("status"));
    }

    /**
     * Attack (issue 22, finding 6): with sessions.max=6, bob opens seven sessions to push alice's out as the
     * least recently used. The full table takes from whoever holds the most: bob's own oldest goes.
     */
    @Test
    void attackOnePrincipalCannotEvictAnothersSession() throws Exception {
        try (HttpSandboxServer small = HttpSandboxServer.start(Map.of("alice", ALICE, "bob", BOB), "--workers=1",
                "--sessions.max=6")) {
            McpSyncClient tenant = small.client(ALICE);
            McpSyncClient bob = small.client(BOB);
            try {
                assertEquals("success", execute(tenant, python("kept = 'alice'", "session_id", "work")).get("status"));
                for (int i = 1; i <= 7; i++) {
                    Map<String, Object> opened = execute(bob, python("n = " + i, "session_id", "bob-" + i));
                    assertEquals(Boolean.TRUE, opened.get("session_new"), opened::toString);
                }
                Map<String, Object> after = execute(tenant, python("print(kept)", "session_id", "work"));
                assertEquals("alice\n", after.get("stdout"), after::toString);
                assertEquals(Boolean.FALSE, after.get("session_new"), after::toString);
                Map<String, Object> bobsOldest = execute(bob, python("print(n)", "session_id", "bob-1"));
                assertEquals("setup_error", bobsOldest.get("status"), bobsOldest::toString);
                assertTrue(String.valueOf(bobsOldest.get("error_message")).contains("its principal held the most"),
                        bobsOldest::toString);
            } finally {
                tenant.closeGracefully();
                bob.closeGracefully();
            }
        }
    }

    @Test
    void aCallWithAProgressTokenHearsProgressOnItsStream() {
        Map<String, Object> result = structured(alice.callTool(CallToolRequest.builder("execute_code")
                .arguments(python("import time\ntime.sleep(3)\nprint('slept')")).progressToken("http-progress").build()));
        assertEquals("slept\n", result.get("stdout"));
        List<ProgressNotification> heard = progress.stream().filter(p -> "http-progress".equals(p.progressToken())).toList();
        assertFalse(heard.isEmpty(), "no progress notification for a 3 s call at a 1 s interval");
    }

    /** Proxies cut connections that stay silent; the event stream's keep-alive comments keep a long call's open. */
    @Test
    void aLongCallOutlivesAProxyThatCutsIdleConnections() throws Exception {
        String sleeper = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
                + "\"arguments\":{\"language\":\"python\",\"code\":\"import time\\ntime.sleep(8)\\nprint('awake')\"}}}";
        try (IdleCuttingProxy proxy = new IdleCuttingProxy(server.port, Duration.ofSeconds(5))) {
            // Control: answered in plain JSON, the call is silent for 8 s and the proxy cuts it.
            RawResponse plain = raw(proxy.port(), postText(sleeper, "Host: 127.0.0.1", "Authorization: Bearer " + ALICE,
                    "Accept: application/json"));
            assertEquals(0, plain.status(), "the proxy should have cut a silent connection: " + plain.text());
            // The SDK's client accepts event streams: its call gets a comment every second, and the answer arrives.
            McpSyncClient viaProxy = server.client(proxy.port(), ALICE, spec -> spec);
            try {
                Map<String, Object> streamed = execute(viaProxy, python("import time\ntime.sleep(8)\nprint('awake')"));
                assertEquals("awake\n", streamed.get("stdout"), streamed::toString);
            } finally {
                viaProxy.closeGracefully();
            }
        }
    }

    /** A client that gives up must not leave its code running: the session's next call would wait behind it. */
    @Test
    void aClientThatDisconnectsStopsItsCode() throws Exception {
        String spin = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
                + "\"arguments\":{\"language\":\"python\",\"session_id\":\"spin\",\"timeout\":150,"
                + "\"code\":\"print('spinning', flush=True)\\nwhile True:\\n    pass\"}}}";
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port)) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(postText(spin, "Host: 127.0.0.1", "Authorization: Bearer " + ALICE,
                    "Accept: application/json, text/event-stream").getBytes(StandardCharsets.UTF_8));
            out.flush();
            String head = readUntil(socket.getInputStream(), "\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            Thread.sleep(2_000);
        }
        // The session's calls run one after another: this one can only start once the spinning one has stopped,
        // which the 150 s timeout alone would do far later than this client waits.
        assertSessionFreed("spin");
        assertTrue(server.log.stream().anyMatch(line -> line.contains("stopping a tool call: client went away")));
    }

    /** notifications/cancelled stops a call; attack: another principal cancelling a call it does not own. */
    @Test
    void notificationsCancelledStopsOnlyTheSamePrincipalsCall() throws Exception {
        String spin = "{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
                + "\"arguments\":{\"language\":\"python\",\"session_id\":\"cancel-me\",\"timeout\":150,"
                + "\"code\":\"while True:\\n    pass\"}}}";
        String cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":77}}";
        String stopped = "stopping a tool call: cancelled by the client";
        long before = server.log.stream().filter(line -> line.contains(stopped)).count();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port)) {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(postText(spin, "Host: 127.0.0.1", "Authorization: Bearer " + ALICE)
                    .getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            String head = readUntil(socket.getInputStream(), "\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertEquals(202, server.post(cancel, "Authorization", "Bearer " + BOB).statusCode());
            Thread.sleep(1_500);
            assertEquals(before, server.log.stream().filter(line -> line.contains(stopped)).count(),
                    "bob's cancellation stopped alice's call");
            assertEquals(202, server.post(cancel, "Authorization", "Bearer " + ALICE).statusCode());
            ByteArrayOutputStream rest = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(rest);
            assertFalse(rest.toString(StandardCharsets.UTF_8).contains("\"id\":77"), "a cancelled call got an answer: " + rest);
        }
        assertSessionFreed("cancel-me");
        assertEquals(before + 1, server.log.stream().filter(line -> line.contains(stopped)).count());
    }

    /**
     * {@code /readyz} is what HAProxy and Kubernetes route on: a replica whose one worker is being replaced
     * serves the next call a few seconds late and stays in rotation, but one that cannot start a worker goes
     * out of it. The worker's JVM options come from an argument file, so deleting the file makes every later
     * worker fail to start.
     */
    @Test
    void readyzStaysUpThroughAWorkerReplacementButNotWhenNoWorkerCanStart() throws Exception {
        String tag = "-Dpysandbox.it=http-readiness";
        Path options = Files.createTempFile("worker-options", ".args");
        Files.writeString(options, "-Dpysandbox.it.options=file\n");
        try (HttpSandboxServer one = HttpSandboxServer.start(Map.of("alice", ALICE), "--workers=1",
                "--worker.os-sandbox=off", "--worker.jvm-options=" + tag + " @" + options)) {
            killWorkers(tag);
            CompletableFuture<Map<String, Object>> next = CompletableFuture.supplyAsync(() -> {
                McpSyncClient client = one.client(ALICE);
                try {
                    return execute(client, python("print('after')"));
                } finally {
                    client.closeGracefully();
                }
            }, runnable -> new Thread(runnable, "readiness-call").start());
            int probes = 0;
            while (!next.isDone()) {
                assertEquals(200, one.get("/readyz").statusCode(), "/readyz turned 503 during a routine worker replacement");
                probes++;
                Thread.sleep(20);
            }
            assertEquals("after\n", next.get().get("stdout"), next.get()::toString);
            assertTrue(probes > 10, "the replacement was over before /readyz was probed: " + probes + " probes");

            Files.delete(options);
            killWorkers(tag);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (one.get("/readyz").statusCode() != 503) {
                assertTrue(System.nanoTime() < deadline, "/readyz still 200 while no worker can start; log:\n"
                        + String.join("\n", one.log));
                Thread.sleep(100);
            }
            assertEquals(200, one.get("/healthz").statusCode());
        } finally {
            Files.deleteIfExists(options);
        }
    }

    private static void killWorkers(String tag) throws Exception {
        List<ProcessHandle> workers = SandboxServer.workersTagged(tag);
        assertFalse(workers.isEmpty(), "no worker tagged " + tag);
        for (ProcessHandle worker : workers) {
            worker.destroyForcibly();
            worker.onExit().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void sigtermDrainsCallsInFlightThenStops() throws Exception {
        // Alice's client has made calls before: the answer must reach a client on a connection it reuses.
        // A thread of its own: on two cores the common pool has one thread, and an SDK HTTP client call made
        // from that thread never completed, drain or not (5 tries in 5; which step of the client waits for
        // that pool was not found).
        CompletableFuture<Map<String, Object>> inFlight = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                inFlight.complete(execute(alice, python("import time\ntime.sleep(5)\nprint('finished')")));
            } catch (RuntimeException e) {
                inFlight.completeExceptionally(e);
            }
        }, "in-flight-call");
        caller.start();
        Thread.sleep(1_500);
        // SIGTERM, keeping the pipes open to read the log (Process.destroy would close them).
        server.process.toHandle().destroy();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (server.get("/readyz").statusCode() != 503) {
            assertTrue(System.nanoTime() < deadline, "/readyz still 200 after SIGTERM");
            Thread.sleep(50);
        }
        HttpResponse<String> refused = server.post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}",
                "Authorization", "Bearer " + ALICE);
        assertEquals(503, refused.statusCode());
        assertJsonRpcError(refused.body());
        Map<String, Object> finished;
        try {
            finished = inFlight.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the call in flight got no answer; server log:\n" + String.join("\n", server.log));
        }
        assertEquals("finished\n", finished.get("stdout"), finished::toString);
        assertTrue(server.process.waitFor(60, TimeUnit.SECONDS), "the server did not exit after draining");
        long workersLeft = 0;
        for (int i = 0; i < 50 && (workersLeft = SandboxServer.workersTagged(TAG).size()) > 0; i++) {
            Thread.sleep(100);
        }
        assertEquals(0, workersLeft, "worker processes outlived the server");
    }

    /**
     * The session's calls run one after another: a next call answers within this client's 60 s only if the
     * stopped one (150 s timeout) really stopped. Its session may survive, or be reported lost with its worker.
     */
    private void assertSessionFreed(String sessionId) {
        McpSyncClient patient = server.client(ALICE, spec -> spec.requestTimeout(Duration.ofSeconds(60)));
        try {
            Map<String, Object> next = execute(patient, python("print('next')", "session_id", sessionId));
            assertTrue("success".equals(next.get("status")) || String.valueOf(next.get("error_message")).contains(sessionId),
                    next::toString);
        } finally {
            patient.closeGracefully();
        }
    }

    // --- raw HTTP ---------------------------------------------------------------------------------------

    record RawResponse(int status, String text) {
    }

    private static String postText(String body, String... headers) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder("POST /mcp HTTP/1.1\r\n");
        boolean accept = false;
        for (String header : headers) {
            request.append(header).append("\r\n");
            accept |= header.startsWith("Accept:");
        }
        if (!accept) {
            request.append("Accept: application/json, text/event-stream\r\n");
        }
        request.append("Content-Type: application/json\r\nConnection: close\r\nContent-Length: ").append(bytes.length)
                .append("\r\n\r\n").append(body);
        return request.toString();
    }

    private RawResponse raw(String request) throws IOException {
        return raw(server.port, request);
    }

    /** Sends one request on a fresh connection and reads until the server (or a proxy) closes it; status 0 if nothing came. */
    private static RawResponse raw(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(bytes);
            } catch (IOException e) {
                // reset by the proxy: whatever came before counts
            }
            String text = bytes.toString(StandardCharsets.UTF_8);
            int status = text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : 0;
            return new RawResponse(status, text);
        }
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (!bytes.toString(StandardCharsets.UTF_8).contains(end)) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            bytes.write(b);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static void expectError(RawResponse response, int status, int code) throws IOException {
        assertEquals(status, response.status(), response.text());
        String text = response.text();
        expectErrorBody(text.substring(text.indexOf("\r\n\r\n") + 4), code);
    }

    private static void expectError(HttpResponse<String> response, int status, int code) throws IOException {
        assertEquals(status, response.statusCode(), response.body());
        expectErrorBody(response.body(), code);
    }

    private static void expectErrorBody(String body, int code) throws IOException {
        Map<String, Object> error = assertJsonRpcError(body);
        assertEquals(code, ((Number) error.get("code")).intValue(), body);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> assertJsonRpcError(String body) throws IOException {
        assertFalse(body.contains("stackTrace") || body.contains("Exception") || body.contains("\tat "),
                "an error body must not carry a stack trace: " + body);
        Map<String, Object> message = McpJsonDefaults.getMapper().readValue(body, new TypeRef<Map<String, Object>>() {
        });
        assertEquals("2.0", message.get("jsonrpc"), body);
        // MCP's schema allows a string or integer id, or none: never null.
        assertTrue(!message.containsKey("id") || message.get("id") instanceof String || message.get("id") instanceof Number, body);
        return (Map<String, Object>) message.get("error");
    }
}
