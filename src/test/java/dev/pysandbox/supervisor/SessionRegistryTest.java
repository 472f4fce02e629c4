package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.supervisor.SessionRegistry.Session;
import dev.pysandbox.supervisor.SessionRegistry.SessionEndedException;

class SessionRegistryTest {
    private final List<String> closed = new ArrayList<>();
    private final List<Notice> notices = new ArrayList<>();

    private SessionRegistry registry(int max, Duration idle) {
        return new SessionRegistry(max, max, idle, (worker, id) -> closed.add(id), notices::add);
    }

    /** A worker as the registry sees it: an identity that is not gone. No process runs. */
    private static WorkerProcess worker(String name) {
        Process none = new Process() {
            @Override
            public java.io.OutputStream getOutputStream() {
                return java.io.OutputStream.nullOutputStream();
            }

            @Override
            public java.io.InputStream getInputStream() {
                return java.io.InputStream.nullInputStream();
            }

            @Override
            public java.io.InputStream getErrorStream() {
                return java.io.InputStream.nullInputStream();
            }

            @Override
            public int waitFor() {
                return 0;
            }

            @Override
            public int exitValue() {
                return 0;
            }

            @Override
            public void destroy() {
            }
        };
        return new WorkerProcess(name, none, null, Duration.ZERO, Duration.ZERO, AnswerBudget.of(1024, 1024), null);
    }

    private Session bound(SessionRegistry sessions, String id, WorkerProcess worker) throws SessionEndedException {
        Session session = sessions.open(id);
        sessions.bind(session, worker);
        return session;
    }

    @Test
    void aFullWorkerClosesItsOwnLeastRecentlyUsedSessionNotAnotherWorkers() throws SessionEndedException {
        SessionRegistry sessions = new SessionRegistry(100, 2, Duration.ofMinutes(1), (worker, id) -> closed.add(id),
                notices::add);
        WorkerProcess one = worker("worker-1.1");
        WorkerProcess two = worker("worker-2.1");
        Session oldest = bound(sessions, "other-worker", two);
        Session b = bound(sessions, "b", one);
        bound(sessions, "a", one);
        sessions.open("b"); // b is used again: a is now worker-1's least recently used
        bound(sessions, "c", one);

        String why = "was closed because its worker held 2 sessions (sessions.per-worker, which follows worker.heap)"
                + " and it was the least recently used there.";
        assertEquals(List.of(Notice.info("Session 'a' " + why + " Its variables and imports are gone; call again to"
                + " start a new session with this id.")), notices);
        assertEquals(1, closed.size(), "a's interpreter is closed in its worker: " + closed);
        assertTrue(closed.get(0).startsWith("a#"), closed::toString);
        assertTrue(assertThrows(SessionEndedException.class, () -> sessions.open("a")).getMessage().contains(why));
        assertSame(b, sessions.open("b"));
        assertSame(oldest, sessions.open("other-worker"), "the globally oldest session lives on another worker and stays");
    }

    @Test
    void aBusySessionOnAFullWorkerIsNotClosed() throws SessionEndedException {
        SessionRegistry sessions = new SessionRegistry(100, 1, Duration.ofMinutes(1), (worker, id) -> closed.add(id),
                notices::add);
        WorkerProcess one = worker("worker-1.1");
        Session busy = bound(sessions, "busy", one);
        busy.lock.lock();
        try {
            bound(sessions, "new", one);
            assertSame(busy, sessions.open("busy"));
            assertEquals(List.of(), closed);
            assertEquals(2, sessions.size());
        } finally {
            busy.lock.unlock();
        }
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
