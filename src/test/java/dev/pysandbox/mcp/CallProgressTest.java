package dev.pysandbox.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.CallPhase;

/** The rules for progress notifications, with a fast clock: what each one says, and when none is sent. */
class CallProgressTest {
    private static final Duration TICK = Duration.ofMillis(20);
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final List<ProgressNotification> sent = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopTimers() {
        timers.shutdownNow();
    }

    @Test
    void noTokenNoNotifications() throws InterruptedException {
        try (CallProgress progress = new CallProgress(null, sent::add, Duration.ofSeconds(30), TICK, timers)) {
            progress.accept(CallPhase.RUNNING);
            Thread.sleep(10 * TICK.toMillis());
        }
        assertEquals(List.of(), sent);
    }

    @Test
    void progressGrowsAndSaysWhereTheCallIs() throws InterruptedException {
        try (CallProgress progress = new CallProgress("tok", sent::add, Duration.ofSeconds(30), TICK, timers)) {
            progress.accept(CallPhase.WAITING_FOR_WORKER);
            awaitSent(3);
            progress.accept(CallPhase.RUNNING);
            awaitSent(6);
        }
        ProgressNotification waiting = sent.get(0);
        assertEquals("tok", waiting.progressToken());
        assertNull(waiting.total(), "how long a wait lasts is not known");
        assertTrue(waiting.message().startsWith("waiting ") && waiting.message().endsWith(" for a free sandbox worker"),
                waiting.message());
        ProgressNotification running = sent.get(sent.size() - 1);
        assertTrue(running.message().matches("running \\d+ s of the 30 s timeout"), running.message());
        assertTrue(running.total() >= 30 && running.total() < 31, "the timeout plus the wait: " + running.total());
        for (int i = 1; i < sent.size(); i++) {
            assertTrue(sent.get(i).progress() > sent.get(i - 1).progress(), "progress must grow: " + sent);
        }
    }

    @Test
    void nothingIsSentAfterClose() throws InterruptedException {
        CallProgress progress = new CallProgress("tok", sent::add, Duration.ofSeconds(30), TICK, timers);
        progress.accept(CallPhase.RUNNING);
        awaitSent(1);
        progress.close();
        int atClose = sent.size();
        Thread.sleep(10 * TICK.toMillis());
        assertEquals(atClose, sent.size());
    }

    @Test
    void aClientThatCannotBeReachedDoesNotStopTheTicks() throws InterruptedException {
        List<ProgressNotification> attempts = new CopyOnWriteArrayList<>();
        try (CallProgress progress = new CallProgress("tok", notification -> {
            attempts.add(notification);
            throw new IllegalStateException("Transport is closed");
        }, Duration.ofSeconds(30), TICK, timers)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (attempts.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(TICK.toMillis());
            }
        }
        assertTrue(attempts.size() >= 3, "a failed send must not cancel the next: " + attempts.size());
    }

    private void awaitSent(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (sent.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(TICK.toMillis());
        }
        assertTrue(sent.size() >= count, "only " + sent.size() + " sent");
    }
}
