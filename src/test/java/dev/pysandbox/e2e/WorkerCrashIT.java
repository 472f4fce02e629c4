package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import org.junit.jupiter.api.Test;

/**
 * A worker killed by hand (kill -9) while it runs a call: that call gets a clear error, a session that lived
 * on that worker is rebuilt, later calls work, and the client's user is told of the replacement through MCP
 * logging (issue 11) at warning level, without guest output or host paths, and not when it asked for errors only.
 */
class WorkerCrashIT {
    private final List<LoggingMessageNotification> messages = new CopyOnWriteArrayList<>();

    @Test
    void killedWorkerFailsOnlyItsCallIsReplacedAndIsReportedAtWarningButNotAtLevelError() throws Exception {
        // The tag rides on the worker's command line, so this test can find this server's worker among others.
        String tag = "pysandbox.test.tag=" + UUID.randomUUID();
        try (SandboxServer server = SandboxServer.start(spec -> spec.loggingConsumer(messages::add),
                "--workers=1", "--worker.jvm-options=-D" + tag)) {
            server.client.setLoggingLevel(LoggingLevel.WARNING);
            assertEquals("success", server.python("print('secret guest output')").get("status"), "worker is warm");
            server.execute(Map.of("language", "python", "code", "kept = 1", "session_id", "survivor"));
            CompletableFuture<Map<String, Object>> running = CompletableFuture.supplyAsync(
                    () -> server.python("print('working')\nimport time\ntime.sleep(60)"));
            Thread.sleep(2_000);
            killTheWorker(tag);

            Map<String, Object> lost = running.get(60, TimeUnit.SECONDS);
            assertEquals("execution_error", lost.get("status"));
            assertTrue(((String) lost.get("error_message")).contains("stopped unexpectedly"), (String) lost.get("error_message"));

            Map<String, Object> next = awaitRecovery(server, "print('after the crash')");
            assertEquals("after the crash\n", next.get("stdout"));

            // Its worker died in another call: the session is rebuilt on the replacement by running its call again.
            Map<String, Object> kept = server.execute(Map.of("language", "python", "code", "print(kept)", "session_id", "survivor"));
            assertEquals("1\n", kept.get("stdout"), kept::toString);
            assertEquals(1, kept.get("session_rebuilt"), kept::toString);

            List<LoggingMessageNotification> aboutWorkers = settled(() -> aboutWorker("worker-1.1"));
            assertEquals(1, aboutWorkers.size(), "one message for one replacement: " + messages);
            LoggingMessageNotification replaced = aboutWorkers.get(0);
            assertEquals(LoggingLevel.WARNING, replaced.level());
            assertTrue(replaced.data().matches("Sandbox worker worker-1\\.1 stopped unexpectedly \\(exit code \\d+\\);"
                    + " worker-1\\.2 replaces it\\."), replaced.data());

            server.client.setLoggingLevel(LoggingLevel.ERROR);
            killTheWorker(tag);
            awaitRecovery(server, "pass");
            assertEquals(List.of(), settled(() -> aboutWorker("worker-1.2")), "at level error a replacement is not reported");

            for (LoggingMessageNotification message : messages) {
                assertFalse(message.data().contains("secret guest output"), "no guest output: " + message);
                assertFalse(message.data().contains(SandboxServer.PROJECT_ROOT.toString()), "no host paths: " + message);
            }
        }
    }

    private List<LoggingMessageNotification> aboutWorker(String name) {
        return messages.stream().filter(m -> m.data().contains("Sandbox worker " + name + " ")).toList();
    }

    private static void killTheWorker(String tag) {
        List<ProcessHandle> workers = SandboxServer.generalWorkersTagged(tag);
        assertEquals(1, workers.size(), "exactly one general worker carries the tag");
        workers.get(0).destroyForcibly();
        workers.get(0).onExit().orTimeout(30, TimeUnit.SECONDS).join();
    }

    /**
     * Runs {@code code} once the replacement serves it; the notice went out before that worker started. A call
     * sent in the moment before the server saw the worker die is refused with a request to retry.
     */
    private static Map<String, Object> awaitRecovery(SandboxServer server, String code) throws InterruptedException {
        for (int attempt = 1; attempt <= 5; attempt++) {
            Map<String, Object> result = server.python(code);
            if ("success".equals(result.get("status"))) {
                return result;
            }
            assertTrue(String.valueOf(result.get("error_message")).contains("retry"), result.toString());
            Thread.sleep(1_000);
        }
        throw new AssertionError("the replacement worker served no call");
    }

    /** What {@code seen} returns once the client has had a moment to hand every message it read to us. */
    private static <T> T settled(Supplier<T> seen) throws InterruptedException {
        Thread.sleep(1_000);
        return seen.get();
    }
}
