package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.wire.WireCodec;

/** What the stdio transport does with input a polite client never sends, seen from outside the process. */
class ProtocolIT {
    private static RawServer server;

    @BeforeAll
    static void start() throws IOException {
        server = RawServer.start("--workers=1", "--transport.max-line-bytes=4096");
        server.send(RawServer.executeCall("warm-up", "pass", null));
        server.awaitResponse("warm-up", Duration.ofSeconds(240));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @SuppressWarnings("unchecked")
    private static int errorCode(Map<String, Object> response) {
        return ((Number) ((Map<String, Object>) response.get("error")).get("code")).intValue();
    }

    private static void assertRefused(String line, Object expectedId, int expectedCode, String probeId) {
        server.send(line);
        Map<String, Object> response = server.awaitResponse(expectedId, Duration.ofSeconds(30));
        assertEquals(expectedCode, errorCode(response), "for line: " + line + " -> " + response);
        server.assertAlive(probeId);
    }

    @Test
    void malformedLinesGetJsonRpcErrorsAndTheServerStaysUp() {
        assertRefused("this is not json", null, -32700, "after-garbage");
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":", null, -32700, "after-truncated");
        assertRefused("[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}]", null, -32600, "after-batch");
        assertRefused("{}", null, -32600, "after-empty-object");
        assertRefused("{\"id\":8,\"method\":\"ping\"}", 8, -32600, "after-no-jsonrpc");
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", null, -32600, "after-null-id");
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"no/such/method\"}", 9, -32601, "after-unknown-method");
        server.send("");
        server.send("   ");
        server.assertAlive("after-blank-lines");
    }

    @Test
    void oversizedLineIsRefusedWithoutKillingTheServer() {
        String huge = RawServer.executeCall("huge", "#" + "x".repeat(100_000), null);
        server.send(huge);
        Map<String, Object> response = server.awaitResponse(null, Duration.ofSeconds(30));
        assertEquals(-32600, errorCode(response));
        assertTrue(WireCodec.encode(response).contains("4096"), "names the limit: " + response);
        server.assertAlive("after-huge");
    }

    @Test
    void cancelledCallIsStoppedAndGetsNoResult() throws InterruptedException {
        // In a session, the next call waits for the cancelled one: if the cancel did not stop the code,
        // the second call would run after the sleep and see x == 2. (x == 1 means it was stopped mid-way;
        // a NameError, that a slow machine cancelled it before it started; a lost session, that the worker had to
        // be killed to stop it, which a loaded machine may need. All are a working cancel.)
        server.send(RawServer.executeCall(100, "x = 1\nimport time\ntime.sleep(15)\nx = 2", "cancel-session"));
        Thread.sleep(1_500);
        server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":100,\"reason\":\"test\"}}");
        server.send(RawServer.executeCall(101, "print(x)", "cancel-session"));
        Map<String, Object> next = structured(server.awaitResponse(101, Duration.ofSeconds(60)));
        assertTrue("1\n".equals(next.get("stdout")) || "NameError: name 'x' is not defined".equals(next.get("error_message"))
                || "lost_to_its_own_call".equals(next.get("session_ended")),
                "the cancelled code did not run to the end: " + next);
        server.assertAlive("after-cancel");
        assertTrue(server.stdoutLines.stream().noneMatch(line -> line.contains("\"id\":100")), "no answer for the cancelled call");
    }

    @Test
    void stdoutCarriesOnlyJsonRpcMessages() {
        server.send(RawServer.executeCall("noisy", "import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)", null));
        server.awaitResponse("noisy", Duration.ofSeconds(60));
        for (String line : server.stdoutLines) {
            Object message = WireCodec.parseValue(line);
            assertTrue(message instanceof Map<?, ?> map && "2.0".equals(map.get("jsonrpc")), "not JSON-RPC: " + line);
        }
    }

    @Test
    void stdinEofStillAnswersCallsInFlightThenExits() throws IOException, InterruptedException {
        try (RawServer eof = RawServer.start("--workers=1")) {
            eof.send(RawServer.executeCall("slow", "import time\ntime.sleep(2)\nprint('finished')", null));
            eof.closeStdin();
            Map<String, Object> response = eof.awaitResponse("slow", Duration.ofSeconds(240));
            assertEquals("finished\n", structured(response).get("stdout"));
            assertTrue(eof.process.waitFor(30, TimeUnit.SECONDS), "server exits after draining");
            assertEquals(0, eof.process.exitValue());
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> structured(Map<String, Object> response) {
        assertNull(response.get("error"), () -> "error response: " + response);
        Map<String, Object> result = (Map<String, Object>) response.get("result");
        assertFalse(result == null, "no result");
        return (Map<String, Object>) result.get("structuredContent");
    }
}
