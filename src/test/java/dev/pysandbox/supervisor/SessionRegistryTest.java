package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.Notice;
import dev.pysandbox.supervisor.SessionRegistry.Session;
import dev.pysandbox.supervisor.SessionRegistry.SessionEndedException;

class SessionRegistryTest {
    private final List<String> closed = new ArrayList<>();
    private final List<Notice> notices = new ArrayList<>();

    private SessionRegistry registry(int max, Duration idle) {
        return new SessionRegistry(max, idle, (worker, id) -> closed.add(id), notices::add);
    }

    @Test
    void sameIdGivesTheSameSession() throws SessionEndedException {
        SessionRegistry sessions = registry(4, Duration.ofMinutes(1));
        assertSame(sessions.open("a"), sessions.open("a"));
    }

    @Test
    void leastRecentlyUsedIsEvictedAndTheNextCallIsTold() throws SessionEndedException {
        SessionRegistry sessions = registry(2, Duration.ofMinutes(1));
        sessions.open("a");
        sessions.open("b");
        sessions.open("a");
        sessions.open("c");
        assertEquals(List.of(Notice.info("Session 'b' was closed because more than 2 sessions were open and it was"
                + " the least recently used. Its variables and imports are gone; call again to start a new session"
                + " with this id.")), notices, "the client's user is told when it happens");
        String message = assertThrows(SessionEndedException.class, () -> sessions.open("b")).getMessage();
        assertTrue(message.contains("least recently used"), message);
        sessions.open("b");
        assertEquals(2, sessions.size());
    }

    @Test
    void busySessionIsNotEvicted() throws SessionEndedException {
        SessionRegistry sessions = registry(1, Duration.ofMinutes(1));
        Session busy = sessions.open("busy");
        busy.lock.lock();
        try {
            sessions.open("other");
            assertSame(busy, sessions.open("busy"));
        } finally {
            busy.lock.unlock();
        }
    }

    @Test
    void idleSessionsExpireAndSaySo() throws Exception {
        SessionRegistry sessions = registry(4, Duration.ofMillis(50));
        sessions.open("idle");
        Thread.sleep(120);
        sessions.expireIdle();
        assertEquals(1, notices.size());
        assertEquals(Notice.Level.INFO, notices.get(0).level());
        assertTrue(notices.get(0).text().startsWith("Session 'idle' expired after 0 seconds"), notices.get(0).text());
        String message = assertThrows(SessionEndedException.class, () -> sessions.open("idle")).getMessage();
        assertTrue(message.contains("expired"), message);
    }
}
