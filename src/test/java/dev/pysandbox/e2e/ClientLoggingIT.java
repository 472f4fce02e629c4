package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import org.junit.jupiter.api.Test;

/**
 * MCP logging (issue 11): the server declares the capability, honours {@code logging/setLevel}, and tells
 * the client's user when a worker is replaced, without guest output or host paths.
 */
class ClientLoggingIT {
    private final List<LoggingMessageNotification> messages = new CopyOnWriteArrayList<>();

    @Test
    void aWorkerKilledByHandIsReportedAtWarningAndNotAtLevelError() throws Exception {
        String tag = "pysandbox.logging-it=" + UUID.randomUUID();
        try (SandboxServer server = SandboxServer.start(spec -> spec.loggingConsumer(messages::add),
                "--workers=1", "--worker.jvm-options=-D" + tag)) {
            assertTrue(server.client.getServerCapabilities().logging() != null, "logging capability declared");
            server.client.setLoggingLevel(LoggingLevel.WARNING);
            assertEquals("success", server.python("print('secret guest output')").get("status"), "worker is warm");

            killTheWorker(tag);
            awaitRecovery(server);
            List<LoggingMessageNotification> aboutWorkers = settled(() -> aboutWorker("worker-1.1"));
            assertEquals(1, aboutWorkers.size(), "one message for one replacement: " + messages);
            LoggingMessageNotification replaced = aboutWorkers.get(0);
            assertEquals(LoggingLevel.WARNING, replaced.level());
            assertTrue(replaced.data().matches("Sandbox worker worker-1\\.1 stopped unexpectedly \\(exit code \\d+\\);"
                    + " worker-1\\.2 replaces it\\."), replaced.data());

            server.client.setLoggingLevel(LoggingLevel.ERROR);
            killTheWorker(tag);
            awaitRecovery(server);
            assertEquals(List.of(), settled(() -> aboutWorker("worker-1.2")), "at level error a replacement is not reported");

            for (LoggingMessageNotification message : messages) {
                assertFalse(message.data().contains("secret guest output"), "no guest output: " + message);
                assertFalse(message.data().contains(SandboxServer.PROJECT_ROOT.toString()), "no host paths: " + message);
            }
        }
    }

    @Test
    void anAbsentOsSandboxLayerIsToldToTheClientOnceItHasInitialized() throws Exception {
        // Switched off by the operator: the server knows it at start-up, before any client has initialized, and
        // must tell the client afterwards. (On Linux that is the only way to run without the layer: OsLayerIT.)
        try (SandboxServer server = SandboxServer.start(spec -> spec.loggingConsumer(messages::add),
                "--workers=1", "--worker.os-sandbox=off")) {
            assertEquals("success", server.python("pass").get("status"), "workers run without the layer");
            List<LoggingMessageNotification> aboutLayer = settled(() -> messages.stream()
                    .filter(m -> m.data().contains("OS sandbox layer")).toList());
            assertEquals(1, aboutLayer.size(), messages.toString());
            assertEquals(LoggingLevel.WARNING, aboutLayer.get(0).level());
            assertTrue(aboutLayer.get(0).data().contains("switched off by the operator (worker.os-sandbox=off)"),
                    aboutLayer.get(0).data());
            assertFalse(aboutLayer.get(0).data().contains(SandboxServer.PROJECT_ROOT.toString()), "no host paths");
        }
    }

    private List<LoggingMessageNotification> aboutWorker(String name) {
        return messages.stream().filter(m -> m.data().contains("Sandbox worker " + name + " ")).toList();
    }

    private static void killTheWorker(String tag) throws InterruptedException {
        List<ProcessHandle> workers = SandboxServer.workersTagged(tag);
        assertEquals(1, workers.size(), "exactly one worker carries the tag");
        workers.get(0).destroyForcibly();
        workers.get(0).onExit().orTimeout(30, TimeUnit.SECONDS).join();
    }

    /**
     * Waits until a call succeeds on the replacement; the notice went out before that worker started. A call
     * sent in the moment before the server saw the worker die is refused with a request to retry.
     */
    private static void awaitRecovery(SandboxServer server) throws InterruptedException {
        for (int attempt = 1; attempt <= 5; attempt++) {
            Map<String, Object> result = server.python("pass");
            if ("success".equals(result.get("status"))) {
                return;
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
