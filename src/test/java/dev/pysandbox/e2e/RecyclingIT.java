package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * When a worker is replaced: after a timeout, after a sandbox refusal, after worker.max-calls calls. Seen as
 * a client sees it: with one worker, a session living on it is reported lost once the worker is replaced,
 * and the next call runs on a fresh worker.
 */
class RecyclingIT {
    private static SandboxServer server;

    @BeforeAll
    static void start() {
        server = SandboxServer.start("--workers=1", "--worker.max-calls=4", "--execute.default-timeout-seconds=2");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> inSession(String id, String code) {
        return server.execute(Map.of("language", "python", "code", code, "session_id", id));
    }

    private static void assertLost(String sessionId) {
        Map<String, Object> result = inSession(sessionId, "print(marker)");
        assertEquals("setup_error", result.get("status"), () -> result.toString());
        assertTrue(((String) result.get("error_message")).contains("was lost because its worker process stopped"));
    }

    @Test
    void timeoutReplacesTheWorker() {
        inSession("before-timeout", "marker = 1");
        assertEquals("timeout", server.python("while True: pass").get("status"));
        assertLost("before-timeout");
    }

    @Test
    void sandboxRefusalReplacesTheWorker() {
        inSession("before-refusal", "marker = 1");
        Map<String, Object> refused = server.python("import sys\nsys.modules['os'].system('id')");
        assertTrue(((String) refused.get("error_message")).startsWith("Blocked by the sandbox"));
        assertLost("before-refusal");
    }

    @Test
    void workerIsReplacedAfterMaxCalls() {
        // Start from a fresh worker, so the count is known: a timeout forces one.
        server.python("while True: pass");
        inSession("counted", "marker = 1");                       // call 1 on the new worker
        assertEquals("1\n", inSession("counted", "print(marker)").get("stdout")); // 2
        server.python("pass");                                      // 3
        server.python("pass");                                      // 4: the worker retires after this one
        assertLost("counted");
    }
}
