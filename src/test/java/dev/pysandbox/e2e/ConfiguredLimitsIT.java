package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Limits that only show with non-default settings: session expiry and the session cap, the run_python
 * timeout, and a small output capture. One server with small values serves them all, given as command-line
 * flags the way a user would.
 */
class ConfiguredLimitsIT {
    private static SandboxServer server;

    @BeforeAll
    static void start() {
        server = SandboxServer.start("--workers=1", "--sessions.idle-timeout-seconds=2", "--sessions.max=2",
                "--run-python.timeout-seconds=2", "--output.capture-bytes=1000",
                "--execute.default-timeout-seconds=5", "--execute.max-timeout-seconds=10");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> inSession(String id, String code) {
        return server.execute(Map.of("language", "python", "code", code, "session_id", id));
    }

    /** Expired, a session says so when inspected and at its next call; then its id starts anew. */
    @Test
    void idleSessionExpiresAndSaysSo() throws InterruptedException {
        inSession("short-lived", "value = 1");
        Thread.sleep(4_000);
        Map<String, Object> report = inspect("short-lived");
        assertEquals("ended", report.get("state"), report::toString);
        assertEquals("expired", report.get("ended"));
        assertEquals("unknown", inspect("never-opened").get("state"));
        Map<String, Object> expired = inSession("short-lived", "print(value)");
        assertEquals("setup_error", expired.get("status"));
        assertEquals("expired", expired.get("session_ended"), expired::toString);
        assertTrue(((String) expired.get("error_message")).contains("expired"), (String) expired.get("error_message"));
        Map<String, Object> fresh = inSession("short-lived", "print('value' in globals())");
        assertEquals("False\n", fresh.get("stdout"), "after the notice the id starts a new session");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> inspect(String id) {
        io.modelcontextprotocol.spec.McpSchema.CallToolResult answer =
                server.call("inspect_session", Map.of("session_id", id));
        assertTrue(answer.isError() == null || !answer.isError(), () -> SandboxServer.text(answer));
        return (Map<String, Object>) answer.structuredContent();
    }

    @Test
    void leastRecentlyUsedSessionIsClosedWhenTheCapIsReached() {
        inSession("lru-a", "a = 1");
        inSession("lru-b", "b = 2");
        inSession("lru-c", "c = 3");
        Map<String, Object> evicted = inSession("lru-a", "print(a)");
        assertEquals("setup_error", evicted.get("status"));
        assertTrue(((String) evicted.get("error_message")).contains("least recently used"));
        assertEquals("3\n", inSession("lru-c", "print(c)").get("stdout"));
    }

    @Test
    void runPythonTimeoutIsConfigurable() {
        String answer = SandboxServer.text(server.call("run_python", Map.of("code", "print('partial')\nwhile True: pass")));
        assertTrue(answer.startsWith("Error: Script timed out after 2 seconds."), answer);
        assertTrue(answer.contains("partial"), answer);
    }

    @Test
    void timeoutDefaultAndCapFollowTheSettings() {
        Map<String, Object> result = server.python("while True: pass");
        assertEquals("timeout", result.get("status"));
        assertTrue(((String) result.get("error_message")).contains("5 seconds"));
        assertTrue(server.call("execute_code", Map.of("language", "python", "code", "pass", "timeout", 11)).isError());
    }

    @Test
    void outputCaptureFollowsTheSetting() {
        Map<String, Object> result = server.python("print('y' * 5000)");
        String stdout = (String) result.get("stdout");
        assertTrue(stdout.length() < 1100, "about 1000 bytes kept: " + stdout.length());
        assertEquals(Boolean.TRUE, ((Map<?, ?>) result.get("truncated")).get("stdout"));
    }
}
