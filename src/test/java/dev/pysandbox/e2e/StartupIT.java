package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The MCP edge does not wait for Python: with workers that can never start (an invalid JVM option makes
 * each attempt fail), the server still answers initialize and tools/list, and a call gets a clear
 * setup_error once the start-up limit passes instead of hanging.
 */
class StartupIT {
    @Test
    void serverAnswersWithoutAnyReadyWorkerAndCallsFailClearly() {
        try (SandboxServer server = SandboxServer.start("--workers=1", "--worker.jvm-options=-XX:+NoSuchJvmOption",
                "--worker.startup-timeout-seconds=3")) {
            assertEquals(4, server.client.listTools().tools().size()); // execute_code, run_python, validate_code, inspect_session
            Map<String, Object> result = server.python("print(1)");
            assertEquals("setup_error", result.get("status"));
            String message = (String) result.get("error_message");
            assertTrue(message.startsWith("No sandbox worker became available within 3 seconds"), message);
        }
    }
}
