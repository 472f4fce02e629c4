package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.pysandbox.config.SessionSettings;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.supervisor.SessionRegistry.Session;
import dev.pysandbox.supervisor.SessionRegistry.SessionEndedException;

class SessionRegistryTest {
    /** A worker for tests that do not care which worker holds a session. */
    private static final WorkerProcess WORKER = worker("worker-1.1");
    /** The one client over stdio, which has no principal. */
    private static final String STDIO = null;
    private final List<String> closed = new ArrayList<>();
    private final List<Notice> notices = new ArrayList<>();

    private SessionRegistry registry(int max, Duration idle) {
        return new SessionRegistry(new SessionSettings(max, max, max, idle), (worker, id) -> closed.add(id), notices::add);
    }

    /** A registry with these caps (sessions.max, sessions.max-per-principal, sessions.per-worker) and no expiry. */
    private SessionRegistry registry(int max, int perPrincipal, int perWorker) {
        return new SessionRegistry(new SessionSettings(max, perPrincipal, perWorker, Duration.ofMinutes(1)),
                (worker, id) -> closed.add(id), notices::add);
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
        return bound(sessions, STDIO, id, worker);
    }

    private Session bound(SessionRegistry sessions, String principal, String id, WorkerProcess worker)
            throws SessionEndedException {
        Session session = sessions.open(principal, id, Language.PYTHON);
        sessions.bind(session, worker);
        return session;
    }

    @Test
    void aFullWorkerClosesItsOwnLeastRecentlyUsedSessionNotAnotherWorkers() throws SessionEndedException {
        SessionRegistry sessions = registry(100, 100, 2);
        WorkerProcess one = worker("worker-1.1");
        WorkerProcess two = worker("worker-2.1");
        Session oldest = bound(sessions, "other-worker", two);
        Session b = bound(sessions, "b", one);
        bound(sessions, "a", one);
        sessions.open(STDIO, "b", Language.PYTHON); // b is used again: a is now worker-1's least recently used
        bound(sessions, "c", one);

        String why = "was closed because its worker held 2 sessions (sessions.per-worker, which follows worker.heap)"
                + " and it was the least recently used there.";
        assertEquals(List.of(Notice.info("Session 'a' " + why + " Its variables and imports are gone; call again to"
                + " start a new session with this id.")), notices);
        assertEquals(1, closed.size(), "a's interpreter is closed in its worker: " + closed);
        assertTrue(closed.get(0).startsWith("a#"), closed::toString);
        assertTrue(assertThrows(SessionEndedException.class, () -> sessions.open(STDIO, "a", Language.PYTHON)).getMessage().contains(why));
        assertSame(b, sessions.open(STDIO, "b", Language.PYTHON));
        assertSame(oldest, sessions.open(STDIO, "other-worker", Language.PYTHON), "the globally oldest session lives on another worker and stays");
    }

    @Test
    void aBusySessionOnAFullWorkerIsNotClosed() throws SessionEndedException {
        SessionRegistry sessions = registry(100, 100, 1);
        WorkerProcess one = worker("worker-1.1");
        Session busy = bound(sessions, "busy", one);
        busy.lock.lock();
        try {
            bound(sessions, "new", one);
            assertSame(busy, sessions.open(STDIO, "busy", Language.PYTHON));
            assertEquals(List.of(), closed);
            assertEquals(2, sessions.size());
        } finally {
            busy.lock.unlock();
        }
    }

    @Test
    void sameIdGivesTheSameSession() throws SessionEndedException {
        SessionRegistry sessions = registry(4, Duration.ofMinutes(1));
        assertSame(sessions.open(STDIO, "a", Language.PYTHON), sessions.open(STDIO, "a", Language.PYTHON));
    }

    @Test
    void leastRecentlyUsedIsEvictedAndTheNextCallIsTold() throws SessionEndedException {
        SessionRegistry sessions = registry(2, Duration.ofMinutes(1));
        sessions.open(STDIO, "a", Language.PYTHON);
        sessions.open(STDIO, "b", Language.PYTHON);
        sessions.open(STDIO, "a", Language.PYTHON);
        sessions.open(STDIO, "c", Language.PYTHON);
        assertEquals(List.of(Notice.info("Session 'b' was closed because more than 2 sessions were open and it was"
                + " the least recently used. Its variables and imports are gone; call again to start a new session"
                + " with this id.")), notices, "the client's user is told when it happens");
        String message = assertThrows(SessionEndedException.class, () -> sessions.open(STDIO, "b", Language.PYTHON)).getMessage();
        assertTrue(message.contains("least recently used"), message);
        sessions.open(STDIO, "b", Language.PYTHON);
        assertEquals(2, sessions.size());
    }

    @Test
    void busySessionIsNotEvicted() throws SessionEndedException {
        SessionRegistry sessions = registry(1, Duration.ofMinutes(1));
        Session busy = sessions.open(STDIO, "busy", Language.PYTHON);
        busy.lock.lock();
        try {
            sessions.open(STDIO, "other", Language.PYTHON);
            assertSame(busy, sessions.open(STDIO, "busy", Language.PYTHON));
        } finally {
            busy.lock.unlock();
        }
    }

    @Test
    void idleSessionsExpireAndSaySo() throws Exception {
        SessionRegistry sessions = registry(4, Duration.ofMillis(50));
        sessions.open(STDIO, "idle", Language.PYTHON);
        Thread.sleep(120);
        sessions.expireIdle();
        assertEquals(1, notices.size());
        assertEquals(Notice.Level.INFO, notices.get(0).level());
        assertTrue(notices.get(0).text().startsWith("Session 'idle' expired after 0 seconds"), notices.get(0).text());
        String message = assertThrows(SessionEndedException.class, () -> sessions.open(STDIO, "idle", Language.PYTHON)).getMessage();
        assertTrue(message.contains("expired"), message);
    }

    /**
     * Attack (issue 22, finding 6): with sessions.max=6, bob opens seven sessions to push alice's out as the
     * least recently used. The full table takes from the principal holding the most: bob.
     */
    @Test
    void attackOnePrincipalCannotEvictAnothersSession() throws SessionEndedException {
        SessionRegistry sessions = registry(6, 6, 100);
        WorkerProcess worker = worker("worker-1.1");
        Session alices = bound(sessions, "alice", "alice:work", worker);
        for (int i = 1; i <= 7; i++) {
            bound(sessions, "bob", "bob:s" + i, worker);
        }

        assertSame(alices, sessions.open("alice", "alice:work", Language.PYTHON), "alice's session is still hers");
        assertEquals(6, sessions.size());
        assertEquals(2, closed.size(), closed::toString);
        assertTrue(closed.stream().allMatch(key -> key.startsWith("bob:")), closed::toString);
        assertTrue(notices.stream().noneMatch(notice -> notice.text().contains("alice")), notices::toString);
        String message = assertThrows(SessionEndedException.class, () -> sessions.open("bob", "bob:s1", Language.PYTHON)).getMessage();
        assertTrue(message.contains("more than 6 sessions were open, its principal held the most of them, and it was"
                + " that principal's least recently used"), message);
    }

    /** The same attack through sessions.per-worker: bob fills the worker that holds alice's session. */
    @Test
    void attackOnePrincipalCannotEvictAnothersSessionFromTheirSharedWorker() throws SessionEndedException {
        SessionRegistry sessions = registry(100, 100, 3);
        WorkerProcess worker = worker("worker-1.1");
        Session alices = bound(sessions, "alice", "alice:work", worker);
        for (int i = 1; i <= 5; i++) {
            bound(sessions, "bob", "bob:s" + i, worker);
        }

        assertSame(alices, sessions.open("alice", "alice:work", Language.PYTHON));
        assertEquals(List.of("bob:s1", "bob:s2", "bob:s3"), closed.stream().map(key -> key.substring(0, key.indexOf('#'))).toList());
        String message = assertThrows(SessionEndedException.class, () -> sessions.open("bob", "bob:s1", Language.PYTHON)).getMessage();
        assertTrue(message.contains("its worker held 3 sessions (sessions.per-worker, which follows worker.heap), its"
                + " principal held the most of them there"), message);
    }

    @Test
    void aPrincipalAtItsShareClosesItsOwnLeastRecentlyUsedSession() throws SessionEndedException {
        SessionRegistry sessions = registry(10, 2, 100);
        Session alices = bound(sessions, "alice", "alice:a", WORKER);
        bound(sessions, "bob", "bob:1", WORKER);
        Session second = bound(sessions, "bob", "bob:2", WORKER);
        sessions.open("bob", "bob:1", Language.PYTHON); // bob:2 is now bob's least recently used
        bound(sessions, "bob", "bob:3", WORKER);

        assertEquals(1, closed.size(), closed::toString);
        assertTrue(closed.get(0).startsWith("bob:2#"), closed::toString);
        assertEquals(List.of(Notice.info("Session 'bob:2' was closed because its principal held 2 sessions"
                + " (sessions.max-per-principal) and it was that principal's least recently used. Its variables and"
                + " imports are gone; call again to start a new session with this id.")), notices);
        assertSame(alices, sessions.open("alice", "alice:a", Language.PYTHON), "the table was not full: nobody else's session went");
        assertThrows(SessionEndedException.class, () -> sessions.open("bob", "bob:2", Language.PYTHON));
        assertNotSame(second, sessions.open("bob", "bob:2", Language.PYTHON), "the id starts afresh once its end was reported");
    }

    @Test
    void overStdioACapBelowTheTableClosesTheLeastRecentlyUsed() throws SessionEndedException {
        SessionRegistry sessions = registry(10, 2, 100);
        bound(sessions, "a", WORKER);
        bound(sessions, "b", WORKER);
        bound(sessions, "c", WORKER);

        assertEquals(List.of(Notice.info("Session 'a' was closed because more than 2 sessions were open"
                + " (sessions.max-per-principal) and it was the least recently used. Its variables and imports are"
                + " gone; call again to start a new session with this id.")), notices);
        assertEquals(2, sessions.size());
    }

    /**
     * A full table takes from the principal holding the most sessions, even when another principal holds the
     * least recently used one: alice's two sessions are within her fair share of six among three principals.
     */
    @Test
    void aFullTableTakesFromThePrincipalHoldingTheMostNotTheLeastRecentlyUsed() throws SessionEndedException {
        SessionRegistry sessions = registry(6, 6, 100);
        Session oldest = bound(sessions, "alice", "alice:1", WORKER);
        Session alices = bound(sessions, "alice", "alice:2", WORKER);
        for (int i = 1; i <= 4; i++) {
            bound(sessions, "bob", "bob:" + i, WORKER);
        }
        bound(sessions, "carol", "carol:1", WORKER);

        assertEquals(1, closed.size(), closed::toString);
        assertTrue(closed.get(0).startsWith("bob:1#"), closed::toString);
        assertSame(oldest, sessions.open("alice", "alice:1", Language.PYTHON));
        assertSame(alices, sessions.open("alice", "alice:2", Language.PYTHON));
    }

    /** When the principal that asks holds as many sessions as anyone, its own least recently used one goes. */
    @Test
    void aPrincipalHoldingAsManyAsAnyoneGivesUpItsOwnSession() throws SessionEndedException {
        SessionRegistry sessions = registry(5, 5, 100);
        Session bobs = bound(sessions, "bob", "bob:1", WORKER);
        bound(sessions, "alice", "alice:1", WORKER);
        bound(sessions, "bob", "bob:2", WORKER);
        bound(sessions, "bob", "bob:3", WORKER);
        bound(sessions, "alice", "alice:2", WORKER);
        bound(sessions, "alice", "alice:3", WORKER); // alice and bob now hold three each

        assertEquals(1, closed.size(), closed::toString);
        assertTrue(closed.get(0).startsWith("alice:1#"), closed::toString);
        assertSame(bobs, sessions.open("bob", "bob:1", Language.PYTHON), "bob's session was the least recently used, and stays");
    }

    /** More principals than sessions: each new one takes the least recently used session of those holding one. */
    @Test
    void morePrincipalsThanSessionsTakeTurnsByLeastRecentlyUsed() throws SessionEndedException {
        SessionRegistry sessions = registry(2, 2, 100);
        bound(sessions, "alice", "alice:1", WORKER);
        Session bobs = bound(sessions, "bob", "bob:1", WORKER);
        bound(sessions, "carol", "carol:1", WORKER);

        assertEquals(1, closed.size(), closed::toString);
        assertTrue(closed.get(0).startsWith("alice:1#"), closed::toString);
        assertSame(bobs, sessions.open("bob", "bob:1", Language.PYTHON));
    }

    /** The principal holding the most has only busy sessions: the table runs over rather than take another's. */
    @Test
    void busySessionsOfTheLargestHolderAreNotReplacedByAnothersSession() throws SessionEndedException {
        SessionRegistry sessions = registry(2, 2, 100);
        Session alices = bound(sessions, "alice", "alice:1", WORKER);
        Session one = bound(sessions, "bob", "bob:1", WORKER);
        one.lock.lock();
        try {
            bound(sessions, "bob", "bob:2", WORKER);
            assertEquals(List.of(), closed, "bob holds the most, and his only other session is busy");
            assertSame(alices, sessions.open("alice", "alice:1", Language.PYTHON));
            assertEquals(3, sessions.size());
        } finally {
            one.lock.unlock();
        }
    }
}
