package dev.pysandbox.mcp.transport;

import static dev.pysandbox.mcp.transport.RunningServer.error;
import static dev.pysandbox.mcp.transport.RunningServer.firstText;
import static dev.pysandbox.mcp.transport.RunningServer.isResponseTo;
import static dev.pysandbox.mcp.transport.RunningServer.notification;
import static dev.pysandbox.mcp.transport.RunningServer.request;
import static dev.pysandbox.mcp.transport.RunningServer.sameId;
import static dev.pysandbox.mcp.transport.RunningServer.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class StdioServerTransportTest {

    private RunningServer running;

    private RunningServer start() {
        return start(new RunningServer());
    }

    private RunningServer start(RunningServer server) {
        running = server;
        return server;
    }

    @AfterEach
    void stopAndCheckOutput() throws InterruptedException {
        if (running != null) {
            running.close();
            assertEquals(List.of(), running.stdout.garbage, "every output line must be a JSON-RPC message");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
    void negotiatesEverySupportedProtocolVersion(String version) throws InterruptedException {
        RunningServer s = start();
        assertEquals(List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"), s.transport.protocolVersions());
        assertEquals(version, s.initialize(version));
    }

    @Test
    void logMessagesWaitForTheClientToInitializeThenFollowItsLevel() throws InterruptedException {
        RunningServer s = start();
        s.transport.clientLog().send(new LoggingMessageNotification(LoggingLevel.WARNING, "test", "early warning"));
        s.send(RunningServer.request("init", "initialize", Map.of("protocolVersion", "2025-11-25",
                "capabilities", Map.of(), "clientInfo", Map.of("name", "raw-test-client", "version", "1"))));
        s.awaitResponse("init");
        assertNull(s.stdout.messages.poll(300, TimeUnit.MILLISECONDS), "nothing before notifications/initialized");

        s.send(RunningServer.notification("notifications/initialized", null));
        Map<String, Object> early = s.next();
        assertEquals("notifications/message", early.get("method"));
        assertEquals(Map.of("level", "warning", "logger", "test", "data", "early warning"), early.get("params"));

        s.send(RunningServer.request("level", "logging/setLevel", Map.of("level", "error")));
        s.awaitResponse("level");
        s.transport.clientLog().send(new LoggingMessageNotification(LoggingLevel.WARNING, "test", "below the level"));
        s.transport.clientLog().send(new LoggingMessageNotification(LoggingLevel.ERROR, "test", "at the level"));
        Map<String, Object> next = s.next();
        assertEquals(Map.of("level", "error", "logger", "test", "data", "at the level"), next.get("params"));
    }

    @Test
    void readerIsOneNonDaemonThreadNamedMcpStdin() throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        List<Thread> readers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("mcp-stdin") && t.isAlive())
                .toList();
        assertFalse(readers.isEmpty(), "no mcp-stdin thread");
        assertTrue(readers.stream().noneMatch(Thread::isDaemon), "mcp-stdin must not be a daemon thread");
    }

    static Stream<Arguments> malformedLines() {
        return Stream.of(
                Arguments.of("not json", "this is not json", -32700, null, "Parse error"),
                Arguments.of("truncated object", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"pi", -32700, null,
                        "Parse error"),
                Arguments.of("trailing garbage", "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"} x", -32700,
                        null, "Parse error"),
                Arguments.of("batch", "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}]", -32600, null,
                        "Invalid Request (batch not supported)"),
                Arguments.of("empty batch", "[]", -32600, null, "Invalid Request (batch not supported)"),
                Arguments.of("number", "42", -32600, null, "Invalid Request"),
                Arguments.of("string", "\"ping\"", -32600, null, "Invalid Request"),
                Arguments.of("null", "null", -32600, null, "Invalid Request"),
                Arguments.of("empty object", "{}", -32600, null, "Invalid Request"),
                Arguments.of("missing jsonrpc", "{\"id\":8,\"method\":\"ping\"}", -32600, 8, "Invalid Request"),
                Arguments.of("wrong jsonrpc", "{\"jsonrpc\":\"1.0\",\"id\":\"v1\",\"method\":\"ping\"}", -32600,
                        "v1", "Invalid Request"),
                Arguments.of("null id", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", -32600, null,
                        "Invalid Request"),
                Arguments.of("fractional id", "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", -32600, 1.5,
                        "Invalid Request"),
                Arguments.of("object id", "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}", -32600, null,
                        "Invalid Request"),
                Arguments.of("method not a string", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":7}", -32600, 9,
                        "Invalid Request"),
                Arguments.of("neither request nor response", "{\"jsonrpc\":\"2.0\",\"id\":10}", -32600, 10,
                        "Invalid Request"),
                // Passes our checks, refused by McpSchema.deserializeJsonRpcMessage itself.
                Arguments.of("response with result and error",
                        "{\"jsonrpc\":\"2.0\",\"id\":11,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}",
                        -32600, 11, "Invalid Request"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedLines")
    void malformedLineIsAnsweredAndServerStaysUp(String name, String line, int code, Object id, String message)
            throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        s.send(line);
        // The reader writes the error before it reads the next line, so it must come first.
        Map<String, Object> reply = s.next();
        assertTrue(reply.containsKey("id"), "error replies must carry an id, null if unknown: " + reply);
        assertTrue(sameId(id, reply.get("id")), () -> "id " + id + " expected in " + reply);
        Map<String, Object> err = error(reply);
        assertEquals(code, ((Number) err.get("code")).intValue(), () -> reply.toString());
        assertEquals(message, err.get("message"));
        assertNoStackTrace(err);
        s.assertAlive("after-" + name);
    }

    @Test
    void blankLinesAreIgnored() throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        s.stdin.writeRaw("\n   \n\t\n\r\n \r\n".getBytes(StandardCharsets.UTF_8));
        s.send(request("p", "ping", null));
        Map<String, Object> first = s.next();
        assertTrue(isResponseTo(first, "p"), () -> "expected only the ping response, got " + first);
    }

    @Test
    void requestsAreStillServedAfterManyBadLinesInARow() throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        malformedLines().forEach(args -> s.send((String) args.get()[1]));
        s.assertAlive("still-here");
        long errors = s.stdout.all.stream().filter(m -> m.containsKey("error")).count();
        assertEquals(malformedLines().count(), errors);
    }

    @Test
    void oversizedLineIsSkippedAndAnsweredThenServingContinues() throws InterruptedException {
        int limit = 1024;
        RunningServer s = start(new RunningServer(limit, Duration.ofSeconds(10)));
        s.initialize();

        String huge = toolCall(1, "echo", Map.of("text", "x".repeat(1024 * 1024)));
        s.send(huge);
        Map<String, Object> reply = s.next();
        assertNull(reply.get("id"));
        Map<String, Object> err = error(reply);
        assertEquals(-32600, ((Number) err.get("code")).intValue());
        assertTrue(((String) err.get("message")).contains("exceeded " + limit + " bytes"), err::toString);
        s.assertAlive("after-huge");

        // A request of exactly the limit is still fine.
        String skeleton = toolCall(2, "echo", Map.of("text", ""));
        String exact = toolCall(2, "echo", Map.of("text", "y".repeat(limit - skeleton.length())));
        assertEquals(limit, exact.getBytes(StandardCharsets.UTF_8).length);
        s.send(exact);
        assertEquals("y".repeat(limit - skeleton.length()), firstText(s.awaitResponse(2)));
    }

    @Test
    void concurrentCallsEachGetExactlyOneResponse() throws Exception {
        RunningServer s = start();
        s.initialize();
        int calls = 200;
        int writers = 16;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                writes.add(pool.submit(() -> {
                    go.await();
                    for (int i = writer; i < calls; i += writers) {
                        // Every call also makes the handler send a progress notification concurrently.
                        s.send(request("call-" + i, "tools/call", Map.of("name", "echo",
                                "arguments", Map.of("text", "text-" + i),
                                "_meta", Map.of("progressToken", "tok-" + i))));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> write : writes) {
                write.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        Map<String, String> texts = new HashMap<>();
        Map<String, Integer> progress = new HashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (texts.size() < calls && System.nanoTime() < deadline) {
            Map<String, Object> m = s.next();
            if ("notifications/progress".equals(m.get("method"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> params = (Map<String, Object>) m.get("params");
                progress.merge((String) params.get("progressToken"), 1, Integer::sum);
                continue;
            }
            String id = (String) m.get("id");
            String previous = texts.put(id, firstText(m));
            assertNull(previous, "second response for " + id);
        }
        // Anything still queued (a duplicate, a late progress notification) is in the output before the ping reply.
        s.assertAlive("after-burst");
        for (int i = 0; i < calls; i++) {
            assertEquals("text-" + i, texts.get("call-" + i), "response for call-" + i);
        }
        long responses = s.stdout.all.stream().filter(m -> String.valueOf(m.get("id")).startsWith("call-")).count();
        assertEquals(calls, responses, "exactly one response per call");
        long notifications = s.stdout.all.stream().filter(m -> "notifications/progress".equals(m.get("method")))
                .count();
        assertEquals(calls, notifications, "exactly one progress notification per call");
    }

    @Test
    void stdinEofWaitsForInFlightCallThenTerminates() throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        s.send(toolCall(7, "sleep", Map.of("ms", 1000, "tag", "eof")));
        assertEquals("eof", s.sleepStarted.poll(10, TimeUnit.SECONDS));
        long closedAt = System.nanoTime();
        s.stdin.end();

        assertTrue(s.transport.awaitTermination(Duration.ofSeconds(10)), "transport did not terminate");
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAt);
        // Written before termination, so it must already be there: no waiting here.
        Map<String, Object> response = s.stdout.all.stream().filter(m -> isResponseTo(m, 7)).findFirst()
                .orElseThrow(() -> new AssertionError("in-flight response lost at EOF: " + s.stdout.all));
        assertEquals("slept 1000", firstText(response));
        assertTrue(waitedMillis >= 500, "terminated before the call could have finished: " + waitedMillis + " ms");
        assertTrue(s.sleepInterrupted.isEmpty(), "drain must not interrupt a call that finishes in time");
    }

    @Test
    void drainTimeoutCancelsCallsThatRunTooLong() throws InterruptedException {
        RunningServer s = start(new RunningServer(1024 * 1024, Duration.ofMillis(300)));
        s.initialize();
        s.send(toolCall(8, "sleep", Map.of("ms", 60_000, "tag", "straggler")));
        assertEquals("straggler", s.sleepStarted.poll(10, TimeUnit.SECONDS));
        s.stdin.end();

        assertTrue(s.transport.awaitTermination(Duration.ofSeconds(10)), "transport did not terminate");
        assertEquals("straggler", s.sleepInterrupted.poll(10, TimeUnit.SECONDS), "straggler was not interrupted");
        Thread.sleep(200);
        assertTrue(s.stdout.all.stream().noneMatch(m -> isResponseTo(m, 8)), "cancelled straggler was answered");
    }

    @Test
    void closeGracefullyDrainsInFlightCallsThenTerminates() throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        s.send(toolCall("g", "sleep", Map.of("ms", 500, "tag", "graceful")));
        assertEquals("graceful", s.sleepStarted.poll(10, TimeUnit.SECONDS));

        s.server.closeGracefully();

        assertTrue(s.transport.awaitTermination(Duration.ZERO), "closeGracefully returned before termination");
        assertTrue(s.stdout.all.stream().anyMatch(m -> isResponseTo(m, "g")), "in-flight call was not drained");
    }

    @Test
    void closeCancelsInFlightCallsAtOnce() throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        s.send(toolCall("c", "sleep", Map.of("ms", 60_000, "tag", "closed")));
        assertEquals("closed", s.sleepStarted.poll(10, TimeUnit.SECONDS));

        s.server.close();

        assertTrue(s.transport.awaitTermination(Duration.ofSeconds(5)), "close did not terminate");
        assertEquals("closed", s.sleepInterrupted.poll(10, TimeUnit.SECONDS), "in-flight call was not interrupted");
        Thread.sleep(200);
        assertTrue(s.stdout.all.stream().noneMatch(m -> isResponseTo(m, "c")), "cancelled call was answered");
    }

    @Test
    void cancelledCallIsInterruptedAndNeverAnswered() throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        s.send(toolCall(42, "sleep", Map.of("ms", 30_000, "tag", "doomed")));
        s.send(toolCall(43, "sleep", Map.of("ms", 300, "tag", "survivor")));
        assertEquals(List.of("doomed", "survivor"),
                List.of(s.sleepStarted.poll(10, TimeUnit.SECONDS), s.sleepStarted.poll(10, TimeUnit.SECONDS))
                        .stream().sorted().toList());

        s.send(notification("notifications/cancelled", Map.of("requestId", 42, "reason", "user abort")));
        assertEquals("doomed", s.sleepInterrupted.poll(10, TimeUnit.SECONDS), "handler thread was not interrupted");

        // The interrupted handler returns at once; had its result not been dropped, it would be
        // written right now. Give it time, then check that only the survivor got an answer.
        assertEquals("slept 300", firstText(s.awaitResponse(43)));
        Thread.sleep(500);
        s.assertAlive("after-cancel");
        assertTrue(s.stdout.all.stream().noneMatch(m -> isResponseTo(m, 42)),
                () -> "cancelled request was answered: " + s.stdout.all);
        assertTrue(s.sleepInterrupted.isEmpty(), "only the cancelled call may be interrupted");
    }

    @Test
    void cancellationOfUnknownOrFinishedRequestIsHarmless() throws InterruptedException {
        RunningServer s = start();
        s.initialize();
        s.send(toolCall("done", "echo", Map.of("text", "hi")));
        assertEquals("hi", firstText(s.awaitResponse("done")));
        s.send(notification("notifications/cancelled", Map.of("requestId", "done")));
        s.send(notification("notifications/cancelled", Map.of("requestId", "never-sent")));
        s.send(notification("notifications/cancelled", Map.of()));
        s.send(request("p", "ping", null));
        Map<String, Object> next = s.next();
        assertTrue(isResponseTo(next, "p"), () -> "cancellation produced output: " + next);
    }

    private static void assertNoStackTrace(Map<String, Object> error) {
        String text = error.toString();
        assertFalse(text.contains("\tat ") || text.contains("Exception:") || text.contains("\n"),
                () -> "error leaks internals: " + text);
    }
}
