package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

import dev.pysandbox.execution.Notice;

/**
 * Sessions: a client-chosen id whose Python context (variables, imports) lives on in one worker between
 * calls. Sessions are capped in number, in all and per worker (least recently used goes first), and expire
 * when idle. An id that ended is remembered for a while, so that the next call with it is told what happened
 * instead of silently running in an empty context.
 */
final class SessionRegistry {
    private static final int REMEMBERED_ENDINGS = 1024;

    /** Thrown when a call names a session that has ended; the message says how, and the id is free again. */
    static final class SessionEndedException extends Exception {
        SessionEndedException(String message) {
            super(message);
        }
    }

    /** One session. Its lock makes calls in the same session run one after another, as in a REPL. */
    static final class Session {
        final String id;
        /**
         * The name of this session's context inside its worker. Unique per session, not per id: when an id
         * ends and starts again, a close for the old context still in flight cannot hit the new one.
         */
        final String workerKey;
        final ReentrantLock lock = new ReentrantLock(true);
        volatile WorkerProcess worker;
        volatile long lastUsedNanos = System.nanoTime();

        Session(String id, long serial) {
            this.id = id;
            this.workerKey = id + "#" + serial;
        }
    }

    private static final String LOST =
            "was lost because its worker process stopped (a crash, the memory limit, or recovery from a timeout).";

    private long serials;
    private final int maxSessions;
    private final int perWorker;
    private final Duration idleTimeout;
    /** Close a session's context in its worker: (worker, session id). */
    private final BiConsumer<WorkerProcess, String> closer;
    private final Consumer<Notice> notices;
    /** Access order, so the first entry is the least recently used. */
    private final LinkedHashMap<String, Session> sessions = new LinkedHashMap<>(16, 0.75f, true);
    private final LinkedHashMap<String, String> endings = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > REMEMBERED_ENDINGS;
        }
    };

    SessionRegistry(int maxSessions, int perWorker, Duration idleTimeout, BiConsumer<WorkerProcess, String> closer,
            Consumer<Notice> notices) {
        this.maxSessions = maxSessions;
        this.perWorker = perWorker;
        this.idleTimeout = idleTimeout;
        this.closer = closer;
        this.notices = notices;
    }

    /** The live session with this id, or a new one; evicts the least recently used idle session if full. */
    Session open(String id) throws SessionEndedException {
        List<Session> evicted = List.of();
        Session session;
        synchronized (this) {
            String ending = endings.remove(id);
            if (ending != null) {
                throw new SessionEndedException(ended(id, ending));
            }
            session = sessions.get(id);
            if (session == null) {
                session = new Session(id, ++serials);
                sessions.put(id, session);
                evicted = evictLeastRecentlyUsed(session, any -> true, sessions.size() - maxSessions, evictionReason());
            }
            session.lastUsedNanos = System.nanoTime();
        }
        closeEnded(evicted, evictionReason());
        return session;
    }

    /**
     * Binds a new session to the worker its first call runs on. If that worker already holds
     * {@code sessions.per-worker} sessions, its least recently used idle ones are closed first: each session's
     * interpreter lives in the worker's heap, and a worker that runs out of it fails the call it serves and
     * loses every session it holds.
     */
    void bind(Session session, WorkerProcess worker) {
        List<Session> evicted;
        synchronized (this) {
            session.worker = worker;
            long held = sessions.values().stream().filter(s -> s.worker == worker).count();
            evicted = evictLeastRecentlyUsed(session, s -> s.worker == worker, (int) (held - perWorker), fullWorkerReason());
        }
        closeEnded(evicted, fullWorkerReason());
    }

    /**
     * Under the lock: removes up to {@code excess} sessions that {@code among} accepts, least recently used
     * first, sparing {@code keep} and sessions with a call running or waiting; their ids remember why.
     */
    private List<Session> evictLeastRecentlyUsed(Session keep, Predicate<Session> among, int excess, String reason) {
        List<Session> evicted = new ArrayList<>();
        Iterator<Session> lru = sessions.values().iterator();
        while (evicted.size() < excess && lru.hasNext()) {
            Session candidate = lru.next();
            if (candidate != keep && among.test(candidate) && !candidate.lock.isLocked()) {
                lru.remove();
                endings.put(candidate.id, reason);
                evicted.add(candidate);
            }
        }
        return evicted;
    }

    /** Outside the lock: closes the ended sessions' contexts in their workers and tells the client's user. */
    private void closeEnded(List<Session> ended, String reason) {
        ended.forEach(this::closeInWorker);
        ended.forEach(closed -> notices.accept(Notice.info(ended(closed.id, reason))));
    }

    /** Whether this session is still the live one for its id (it may have been evicted while unlocked). */
    synchronized boolean isLive(Session session) {
        return sessions.get(session.id) == session;
    }

    synchronized void touch(Session session) {
        session.lastUsedNanos = System.nanoTime();
    }

    /** Ends idle sessions; called periodically. */
    void expireIdle() {
        List<Session> expired = new ArrayList<>();
        long now = System.nanoTime();
        synchronized (this) {
            Iterator<Session> it = sessions.values().iterator();
            while (it.hasNext()) {
                Session session = it.next();
                if (now - session.lastUsedNanos > idleTimeout.toNanos() && !session.lock.isLocked()) {
                    it.remove();
                    endings.put(session.id, expiryReason());
                    expired.add(session);
                }
            }
        }
        closeEnded(expired, expiryReason());
    }

    /** The worker holding these sessions' contexts is gone, and the contexts with it. */
    void workerGone(WorkerProcess worker) {
        List<String> lost = new ArrayList<>();
        synchronized (this) {
            Iterator<Session> it = sessions.values().iterator();
            while (it.hasNext()) {
                Session session = it.next();
                if (session.worker == worker) {
                    it.remove();
                    endings.put(session.id, LOST);
                    lost.add(session.id);
                }
            }
        }
        lost.forEach(id -> notices.accept(Notice.warning(ended(id, LOST))));
    }

    /**
     * Tells the caller now that this session's worker is gone, and frees the id, whether or not
     * {@link #workerGone} has run yet.
     */
    synchronized String reportLost(Session session) {
        sessions.remove(session.id, session);
        endings.remove(session.id);
        return ended(session.id, LOST);
    }

    /** Forgets a session whose first call never reached a worker, so its id starts afresh. */
    synchronized void discardUnbound(Session session) {
        if (session.worker == null) {
            sessions.remove(session.id);
        }
    }

    synchronized int size() {
        return sessions.size();
    }

    private String evictionReason() {
        return "was closed because more than " + maxSessions + " sessions were open and it was the least recently used.";
    }

    private String fullWorkerReason() {
        return "was closed because its worker held " + perWorker + " sessions (sessions.per-worker, which follows"
                + " worker.heap) and it was the least recently used there.";
    }

    private String expiryReason() {
        return "expired after " + describe(idleTimeout) + " without a call.";
    }

    private static String ended(String id, String how) {
        return "Session '" + id + "' " + how + " Its variables and imports are gone; call again to start a new"
                + " session with this id.";
    }

    private void closeInWorker(Session session) {
        WorkerProcess worker = session.worker;
        if (worker != null && !worker.isGone()) {
            closer.accept(worker, session.workerKey);
        }
    }

    private static String describe(Duration d) {
        long seconds = d.toSeconds();
        if (seconds % 60 == 0 && seconds >= 60) {
            return (seconds / 60) + (seconds == 60 ? " minute" : " minutes");
        }
        return seconds + (seconds == 1 ? " second" : " seconds");
    }
}
