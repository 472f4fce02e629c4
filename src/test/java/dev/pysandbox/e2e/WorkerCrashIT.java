package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A worker killed by hand (kill -9) while it runs a call: that call gets a clear error, a session that lived
 * on that worker is reported lost, and later calls work.
 */
class WorkerCrashIT {
    @Test
    void killedWorkerFailsOnlyItsCallAndIsReplaced() throws Exception {
        // The tag rides on the worker's command line, so this test can find this server's worker among others.
        String tag = "pysandbox.test.tag=" + UUID.randomUUID();
        try (SandboxServer server = SandboxServer.start("--workers=1", "--worker.jvm-options=-D" + tag)) {
            assertEquals("success", server.python("pass").get("status"), "worker is warm");
            server.execute(Map.of("language", "python", "code", "kept = 1", "session_id", "survivor"));
            CompletableFuture<Map<String, Object>> running = CompletableFuture.supplyAsync(
                    () -> server.python("print('working')\nimport time\ntime.sleep(60)"));
            Thread.sleep(2_000);
            List<ProcessHandle> workers = SandboxServer.workersTagged(tag);
            assertEquals(1, workers.size(), "exactly one worker carries the tag");
            workers.get(0).destroyForcibly();

            Map<String, Object> lost = running.get(60, TimeUnit.SECONDS);
            assertEquals("execution_error", lost.get("status"));
            assertTrue(((String) lost.get("error_message")).contains("stopped unexpectedly"), (String) lost.get("error_message"));

            Map<String, Object> next = server.python("print('after the crash')");
            assertEquals("success", next.get("status"));
            assertEquals("after the crash\n", next.get("stdout"));

            // Its worker died in another call: the session is rebuilt on the replacement by running its call again.
            Map<String, Object> kept = server.execute(Map.of("language", "python", "code", "print(kept)", "session_id", "survivor"));
            assertEquals("1\n", kept.get("stdout"), kept::toString);
            assertEquals(1, kept.get("session_rebuilt"), kept::toString);
        }
    }
}
