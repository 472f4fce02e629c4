package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import org.junit.jupiter.api.Test;

/**
 * Progress notifications for long calls (issue 11), seen by real clients: the Java SDK's, and raw JSON-RPC
 * for cancellation. A call with {@code _meta.progressToken} hears from the server while it waits or runs,
 * and nothing after its answer; a call without one hears nothing.
 */
class ProgressIT {
    private final List<ProgressNotification> progress = new CopyOnWriteArrayList<>();

    private List<ProgressNotification> progressFor(Object token) {
        return progress.stream().filter(p -> token.equals(p.progressToken())).toList();
    }

    private static CallToolRequest call(String tool, Map<String, Object> arguments, String token) {
        CallToolRequest.Builder request = CallToolRequest.builder(tool).arguments(arguments);
        return (token == null ? request : request.progressToken(token)).build();
    }

    private static Map<String, Object> python(String code) {
        return Map.of("language", "python", "code", code, "timeout", 30);
    }

    @Test
    void aTwelveSecondCallWithATokenHearsProgressThenItsResultAndOneWithoutHearsNothing() throws Exception {
        // The default interval (5 s): the point is that the shipped configuration keeps clients waiting.
        try (SandboxServer server = SandboxServer.start(spec -> spec.progressConsumer(progress::add), "--workers=1")) {
            assertEquals("success", server.python("pass").get("status"), "worker is warm");

            CallToolResult result = server.client.callTool(call("execute_code",
                    python("import time\ntime.sleep(12)\nprint('done')"), "tok-12"));
            List<ProgressNotification> heard = progressFor("tok-12");
            assertEquals("done\n", ((Map<?, ?>) result.structuredContent()).get("stdout"));
            assertTrue(heard.size() >= 2, "at least two notifications in 12 s: " + heard);
            for (int i = 0; i < heard.size(); i++) {
                ProgressNotification p = heard.get(i);
                assertTrue(i == 0 || p.progress() > heard.get(i - 1).progress(), "progress grows: " + heard);
                assertTrue(p.message().matches("running \\d+ s of the 30 s timeout"), p.message());
                assertNotNull(p.total());
                assertTrue(p.total() >= 30 && p.total() < 32, "total is the timeout: " + p);
            }

            // A call without a token, run for longer than the interval: the one before hears nothing after its
            // result meanwhile, and this one nothing at all.
            int before = progress.size();
            Map<String, Object> untokened = server.execute(python("import time\ntime.sleep(7)\nprint('quiet')"));
            assertEquals("quiet\n", untokened.get("stdout"));
            assertEquals(heard.size(), progressFor("tok-12").size(), "nothing after the result");
            assertEquals(before, progress.size(), "no token, no notifications: " + progress);
        }
    }

    @Test
    void aJavaScriptCallWaitingOnATimerHearsProgressToo() throws Exception {
        try (SandboxServer server = SandboxServer.start(spec -> spec.progressConsumer(progress::add), "--workers=1")) {
            CallToolResult result = server.client.callTool(call("execute_code", Map.of("language", "javascript",
                    "timeout", 30, "code", "await new Promise(resolve => setTimeout(resolve, 7000)); console.log('done');"),
                    "tok-js"));
            assertEquals("done\n", ((Map<?, ?>) result.structuredContent()).get("stdout"), SandboxServer.text(result));
            List<ProgressNotification> heard = progressFor("tok-js");
            assertTrue(!heard.isEmpty(), "a notification in 7 s: " + heard);
            assertTrue(heard.get(heard.size() - 1).message().matches("running \\d+ s of the 30 s timeout"), heard::toString);
        }
    }

    @Test
    void callsWaitingForAWorkerOrTheirSessionSaySoAndRunPythonReportsToo() throws Exception {
        try (SandboxServer server = SandboxServer.start(spec -> spec.progressConsumer(progress::add),
                "--workers=1", "--progress.interval-seconds=1")) {
            assertEquals("success", server.python("pass").get("status"), "worker is warm");

            // The only worker runs a session's 8-second call; a call in the same session waits for the session,
            // and a call outside it waits for the worker.
            // Threads of their own: the common pool has a single thread on two cores, and would send one at a time.
            ExecutorService callers = Executors.newFixedThreadPool(3);
            CompletableFuture<CallToolResult> first = CompletableFuture.supplyAsync(() -> server.client.callTool(call(
                    "execute_code", Map.of("language", "python", "code", "import time\ntime.sleep(8)\nx = 1",
                            "session_id", "s1"), "first")), callers);
            awaitProgress("first", 1);
            CompletableFuture<CallToolResult> sameSession = CompletableFuture.supplyAsync(() -> server.client.callTool(call(
                    "execute_code", Map.of("language", "python", "code", "print(x)", "session_id", "s1"), "same-session")),
                    callers);
            CompletableFuture<CallToolResult> other = CompletableFuture.supplyAsync(() -> server.client.callTool(call(
                    "execute_code", python("print('other')"), "other")), callers);

            assertEquals("1\n", ((Map<?, ?>) sameSession.get(60, TimeUnit.SECONDS).structuredContent()).get("stdout"));
            assertEquals("other\n", ((Map<?, ?>) other.get(60, TimeUnit.SECONDS).structuredContent()).get("stdout"));
            first.get(60, TimeUnit.SECONDS);
            callers.shutdown();
            assertTrue(progressFor("same-session").stream().anyMatch(p -> p.message().matches(
                    "waiting \\d+ s for the session's previous call to finish")), progressFor("same-session").toString());
            assertTrue(progressFor("other").stream().anyMatch(p -> p.message().matches(
                    "waiting \\d+ s for a free sandbox worker")), progressFor("other").toString());

            CallToolResult script = server.client.callTool(call("run_python",
                    Map.of("code", "import time\ntime.sleep(3)\nprint('script done')"), "run-python"));
            assertTrue(SandboxServer.text(script).startsWith("Stdout:\nscript done\n"), SandboxServer.text(script));
            assertTrue(progressFor("run-python").size() >= 2, progressFor("run-python").toString());
        }
    }

    @Test
    void aCancelledCallStopsItsNotifications() throws Exception {
        try (RawServer server = RawServer.start("--workers=1", "--progress.interval-seconds=1")) {
            server.send(RawServer.executeCall("warm-up", "pass", null));
            server.awaitResponse("warm-up", Duration.ofSeconds(240));
            server.send("{\"jsonrpc\":\"2.0\",\"id\":\"long\",\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
                    + "\"arguments\":{\"language\":\"python\",\"code\":\"import time\\ntime.sleep(30)\"},"
                    + "\"_meta\":{\"progressToken\":\"cancel-me\"}}}");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (rawProgress(server, "cancel-me") < 2 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(rawProgress(server, "cancel-me") >= 2, "progress before the cancel: " + server.notifications);
            server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"long\"}}");
            server.assertAlive("after-cancel");
            // One notification may have been on its way as the cancel arrived.
            Thread.sleep(500);
            long atCancel = rawProgress(server, "cancel-me");
            Thread.sleep(4_000);
            assertEquals(atCancel, rawProgress(server, "cancel-me"), "no progress after the cancel: " + server.notifications);
            assertTrue(server.stdoutLines.stream().noneMatch(line -> line.contains("\"id\":\"long\"")), "no answer for the cancelled call");
        }
    }

    @SuppressWarnings("unchecked")
    private static long rawProgress(RawServer server, String token) {
        return server.notifications.stream()
                .filter(n -> "notifications/progress".equals(n.get("method")))
                .filter(n -> token.equals(((Map<String, Object>) n.get("params")).get("progressToken")))
                .count();
    }

    private void awaitProgress(String token, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (progressFor(token).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(progressFor(token).size() >= count, "no progress for " + token);
    }
}
