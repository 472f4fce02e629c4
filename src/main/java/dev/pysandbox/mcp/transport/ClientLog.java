package dev.pysandbox.mcp.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP log messages ({@code notifications/message}) to the client, at or above the level it chose with
 * {@code logging/setLevel} (the SDK's session keeps that level; INFO until the client sets one).
 *
 * <p>A server may not send notifications before the client has said {@code notifications/initialized}, but
 * what a user should know often happens at start-up (the OS sandbox layer missing), so messages from before
 * then wait, the first {@value #MAX_EARLY} of them, and go out when the client is ready.
 */
public final class ClientLog {
    private static final Logger log = LoggerFactory.getLogger(ClientLog.class);
    static final int MAX_EARLY = 32;

    private final Supplier<McpServerSession> session;
    private final List<McpSchema.LoggingMessageNotification> early = new ArrayList<>();
    private boolean clientReady;

    ClientLog(Supplier<McpServerSession> session) {
        this.session = session;
    }

    /** Sends the message now if the client is ready and its level lets it through, later if not ready yet. */
    public void send(McpSchema.LoggingMessageNotification message) {
        synchronized (early) {
            if (!clientReady) {
                if (early.size() < MAX_EARLY) {
                    early.add(message);
                }
                return;
            }
        }
        deliver(message);
    }

    /** The client said {@code notifications/initialized}: what waited goes out, in order. */
    void clientReady() {
        List<McpSchema.LoggingMessageNotification> waiting;
        synchronized (early) {
            if (clientReady) {
                return;
            }
            clientReady = true;
            waiting = List.copyOf(early);
            early.clear();
        }
        waiting.forEach(this::deliver);
    }

    private void deliver(McpSchema.LoggingMessageNotification message) {
        McpServerSession current = session.get();
        if (current != null && current.isNotificationForLevelAllowed(message.level())) {
            current.sendNotification(McpSchema.METHOD_NOTIFICATION_MESSAGE, message)
                    .subscribe(null, error -> log.debug("log message not sent: {}", error.toString()));
        }
    }
}
