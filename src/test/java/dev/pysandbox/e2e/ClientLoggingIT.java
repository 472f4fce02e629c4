package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import org.junit.jupiter.api.Test;

/**
 * MCP logging (issue 11): the server declares the capability and tells the client what it knew before the client
 * initialized. Its notices of a replaced worker, and {@code logging/setLevel}, are WorkerCrashIT's.
 */
class ClientLoggingIT {
    private final List<LoggingMessageNotification> messages = new CopyOnWriteArrayList<>();

    @Test
    void anAbsentOsSandboxLayerIsToldToTheClientOnceItHasInitialized() throws Exception {
        // Switched off by the operator: the server knows it at start-up, before any client has initialized, and
        // must tell the client afterwards. (On Linux that is the only way to run without the layer: OsLayerIT.)
        try (SandboxServer server = SandboxServer.start(spec -> spec.loggingConsumer(messages::add),
                "--workers=1", "--worker.os-sandbox=off")) {
            assertTrue(server.client.getServerCapabilities().logging() != null, "logging capability declared");
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

    /** What {@code seen} returns once the client has had a moment to hand every message it read to us. */
    private static <T> T settled(Supplier<T> seen) throws InterruptedException {
        Thread.sleep(1_000);
        return seen.get();
    }
}
