package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.pysandbox.config.SessionSettings;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.execution.SessionEnding;
import dev.pysandbox.execution.SessionReport;

/**
 * Sessions: a client-chosen id whose Python context (variables, imports) lives on in one worker between
 * calls. Sessions are capped in number, in all, per principal and per worker, and expire when idle. An id
 * that ended is remembered for a while, so that the next call with it is told what happened instead of
 * silently running in an empty context.
 *
 * <p>Which session a new one closes, so that no principal can close another's at will (issue 22):
 * <ol>
 * <li>A full table ({@code sessions.max}), or a full worker ({@code sessions.per-worker}, counting that
 * worker's sessions only), closes the least recently used session of the principal holding the most sessions
 * there, counting the new one. When the principal that asks holds as many as anyone, that is its own; among
 * other principals tied for the most, the least recently used session of theirs goes.</li>
 * <li>Then a principal holding more than {@code sessions.max-per-principal} closes its own least recently
 * used.</li>
 * </ol>
 * A principal holding no more than its fair share, the capacity divided by the principals holding sessions
 * (in the table, or on that worker), therefore never loses one to another principal: once the new session
 * puts the count over the capacity, whoever holds the most holds more than that share. Sessions with a call
 * running or waiting are never closed; when every session of the principals holding the most is busy, nothing
 * is closed and the table runs over until they are idle, rather than another principal paying for them. Over
 * stdio there is one principal (null), and the rules are plain least recently used.
 *
 * <p>A session is lost only through its own calls (issue 25). When its worker goes for any other reason (another
 * session's call or a call without a session cost it, or {@code worker.max-calls} replaced it), the session stays
 * in the table, displaced, and its next call rebuilds it on a new worker from its {@link SessionJournal}; only a
 * session whose calls cannot be run again ends then, and says why.
 */
final class SessionRegistry {
    private static final int REMEMBERED_ENDINGS = 1024;

    /** Thrown when a call names a session that has ended; the message says how, and the id is free again. */
    static final class SessionEndedException extends Exception {
        final SessionEnding why;

        SessionEndedException(SessionEnding why, String message) {
            super(message);
            this.why = why;
        }
    }

    /** One session. Its lock makes calls in the same session run one after another, as in a REPL. */
    static final class Session {
        final String id;
        /** Who opened it: the HTTP principal, or null for the one client over stdio. */
        final String principal;
        /** The language of its context, set by its first call: a session runs one language. */
        final Language language;
        /**
         * The name of this session's context inside its worker. Unique per session, not per id: when an id
         * ends and starts again, a close for the old context still in flight cannot hit the new one.
         */
        final String workerKey;
        final ReentrantLock lock = new ReentrantLock(true);
        /** The calls that made its state, to rebuild it on another worker; guarded by {@link #lock}. */
        final SessionJournal journal;
        final long openedNanos = System.nanoTime();
        volatile WorkerProcess worker;
        /** Its worker was lost to another call or replaced: the next call rebuilds it from the journal. */
        volatile boolean displaced;
        volatile long lastUsedNanos = openedNanos;
        /** Calls that ran in it; guarded by {@link #lock}. */
        int calls;
        /** Its last calls in a row that ran long ({@link LongCalls#ended}); guarded by {@link #lock}. */
        int computingCalls;
        /** A move to a JIT worker failed: it stays where it is ({@link LongCalls#jitWorkerFor}); under {@link #lock}. */
        boolean staysPut;

        Session(String principal, String id, Language language, long serial, SessionJournal journal) {
            this.principal = principal;
            this.language = language;
            this.id = id;
            this.workerKey = id + "#" + serial;
            this.journal = journal;
        }
    }

    /** How a session ended: the kind its next call is told, and the words. */
    private record Ending(SessionEnding why, String how) {
    }

    private long serials;
    private final SessionSettings settings;
    /** Close a session's context in its worker: (worker, session id). */
    private final BiConsumer<WorkerProcess, String> closer;
    private final Consumer<Notice> notices;
    /** Access order, so the first entry is the least recently used. */
    private final LinkedHashMap<String, Session> sessions = new LinkedHashMap<>(16, 0.75f, true);
    /** Sessions ended since the server started, by why (for the server's metrics). */
    private final Map<SessionEnding, Long> endedSoFar = new EnumMap<>(SessionEnding.class);
    private final LinkedHashMap<String, Ending> endings = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Ending> eldest) {
            return size() > REMEMBERED_ENDINGS;
        }
    };

    SessionRegistry(SessionSettings settings, BiConsumer<WorkerProcess, String> closer, Consumer<Notice> notices) {
        this.settings = settings;
        this.closer = closer;
        this.notices = notices;
    }

    /**
     * The live session with this id, or a new one for {@code principal}; a new one closes another (the class
     * comment gives the rule) if the table or the principal's share is full.
     *
     * @param principal who opens it: the HTTP principal, or null for the one client over stdio
     * @param language  the language of the call that opens it, which a new session keeps
     */
    Session open(String principal, String id, Language language) throws SessionEndedException {
        List<Ended> evicted = List.of();
        Session session;
        synchronized (this) {
            Ending ending = endings.remove(id);
            if (ending != null) {
                throw new SessionEndedException(ending.why(), ended(id, ending.how()));
            }
            session = sessions.get(id);
            if (session == null) {
                session = new Session(principal, id, language, ++serials,
                        new SessionJournal(settings.rebuildBytes(), settings.rebuildTime()));
                sessions.put(id, session);
                evicted = new ArrayList<>(evictFromLargestHolder(session, any -> true,
                        sessions.size() - settings.max(), this::evictionReason));
                Predicate<Session> own = sameHolder(session);
                long held = sessions.values().stream().filter(own).count();
                evicted.addAll(evictFromLargestHolder(session, own, (int) (held - settings.perPrincipal()),
                        this::principalShareReason));
            }
            session.lastUsedNanos = System.nanoTime();
        }
        closeEnded(evicted);
        return session;
    }

    /**
     * Binds a new session to the worker its first call runs on. If that worker already holds
     * {@code sessions.per-worker} sessions, its least recently used idle ones are closed first: each session's
     * interpreter lives in the worker's heap, and a worker that runs out of it fails the call it serves and
     * loses every session it holds.
     */
    void bind(Session session, WorkerProcess worker) {
        List<Ended> evicted;
        synchronized (this) {
            session.worker = worker;
            session.displaced = false;
            long held = sessions.values().stream().filter(s -> s.worker == worker).count();
            evicted = evictFromLargestHolder(session, s -> s.worker == worker, (int) (held - settings.perWorker()),
                    this::fullWorkerReason);
        }
        closeEnded(evicted);
    }

    /**
     * A session rebuilt on {@code worker} of its own accord (it computes, {@link LongCalls#jitWorkerFor}) now lives
     * there: its context on the worker it leaves is closed. Under the session's lock.
     */
    void moved(Session session, WorkerProcess worker) {
        WorkerProcess left = session.worker;
        bind(session, worker);
        if (left != null && !left.isGone()) {
            closer.accept(left, session.workerKey);
        }
    }

    /** Whether {@code worker} holds fewer than {@code sessions.per-worker} sessions, so one more closes none. */
    synchronized boolean hasRoom(WorkerProcess worker) {
        return sessions.values().stream().filter(s -> s.worker == worker).count() < settings.perWorker();
    }

    /** A session this registry ended, and why, for its notice. */
    private record Ended(Session session, Ending ending) {
    }

    private static Predicate<Session> sameHolder(Session session) {
        return other -> Objects.equals(other.principal, session.principal);
    }

    /**
     * Under the lock: removes up to {@code excess} sessions that {@code among} accepts, each time the least
     * recently used one of the principal holding the most of them (the class comment gives the rule), sparing
     * {@code asking} and sessions with a call running or waiting; their ids remember why.
     *
     * @param asking the new session, whose principal gives up its own when it holds as many as anyone
     */
    private List<Ended> evictFromLargestHolder(Session asking, Predicate<Session> among, int excess,
            Function<Session, String> reason) {
        List<Ended> evicted = new ArrayList<>();
        while (evicted.size() < excess) {
            Session victim = largestHoldersLeastRecentlyUsed(asking, among);
            if (victim == null) {
                break;
            }
            evicted.add(end(victim, new Ending(SessionEnding.EVICTED, reason.apply(victim))));
        }
        return evicted;
    }

    /** Under the lock: takes the session out of the table; its id remembers why. */
    private Ended end(Session session, Ending ending) {
        endedSoFar.merge(ending.why(), 1L, Long::sum);
        sessions.remove(session.id);
        endings.put(session.id, ending);
        return new Ended(session, ending);
    }

    /** The session the rule closes next among those {@code among} accepts, or null if all it may pick are busy. */
    private Session largestHoldersLeastRecentlyUsed(Session asking, Predicate<Session> among) {
        Map<String, Integer> held = new HashMap<>();
        sessions.values().stream().filter(among).forEach(s -> held.merge(s.principal, 1, Integer::sum));
        int most = held.values().stream().max(Integer::compare).orElse(0);
        Session others = null;
        // Access order: the first match is the least recently used.
        for (Session candidate : sessions.values()) {
            if (candidate == asking || !among.test(candidate) || candidate.lock.isLocked()
                    || held.get(candidate.principal) < most) {
                continue;
            }
            if (Objects.equals(candidate.principal, asking.principal)) {
                return candidate;
            }
            if (others == null) {
                others = candidate;
            }
        }
        return others;
    }

    /** Outside the lock: closes the ended sessions' contexts in their workers and tells the client's user. */
    private void closeEnded(List<Ended> ended) {
        ended.forEach(closed -> closeInWorker(closed.session()));
        ended.forEach(closed -> notices.accept(Notice.info(ended(closed.session().id, closed.ending().how()))));
    }

    /** The live session with this id, or null; looking does not make it more recently used. */
    synchronized Session find(String id) {
        for (Session session : sessions.values()) {
            if (session.id.equals(id)) {
                return session;
            }
        }
        return null;
    }

    /**
     * A session of this id that is not live: how it ended, if it did lately, as its next call will be told (the id
     * stays reserved for that), else unknown.
     */
    synchronized SessionReport endingOf(String id, String shownId) {
        Ending ending = endings.get(id);
        return ending == null ? SessionReport.unknown(shownId)
                : SessionReport.ended(shownId, ending.why(), ended(shownId, ending.how()));
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
        List<Ended> expired = new ArrayList<>();
        long now = System.nanoTime();
        synchronized (this) {
            for (Session session : List.copyOf(sessions.values())) {
                if (now - session.lastUsedNanos > settings.idleTimeout().toNanos() && !session.lock.isLocked()) {
                    expired.add(end(session, new Ending(SessionEnding.EXPIRED, expiryReason())));
                }
            }
        }
        closeEnded(expired);
    }

    /**
     * The worker holding these sessions' contexts is gone, and the contexts with it. Each session that can be
     * rebuilt stays, displaced, for its next call to rebuild; the others end. A session whose own call cost the
     * worker is ended by {@link #lostToItsOwnCall}, before or after this.
     */
    void workerGone(WorkerProcess worker) {
        List<Ended> lost = new ArrayList<>();
        List<String> displaced = new ArrayList<>();
        synchronized (this) {
            for (Session session : List.copyOf(sessions.values())) {
                if (session.worker != worker) {
                    continue;
                }
                session.worker = null;
                String refusal = session.journal.refusal();
                if (refusal == null) {
                    session.displaced = true;
                    displaced.add(session.id);
                } else {
                    lost.add(end(session, new Ending(SessionEnding.NOT_REBUILT, "was lost with its worker, which "
                            + worker.endingReason() + ", and cannot be rebuilt: " + refusal + ".")));
                }
            }
        }
        displaced.forEach(id -> notices.accept(Notice.info("Session '" + id + "' lost its worker, which "
                + worker.endingReason() + "; its next call rebuilds it on another worker.")));
        lost.forEach(closed -> notices.accept(Notice.warning(ended(closed.session().id, closed.ending().how()))));
    }

    /** The session's own call cost its worker: the session ends with it, and its next call is told so. */
    synchronized void lostToItsOwnCall(Session session, WorkerProcess worker) {
        if (sessions.get(session.id) == session) {
            end(session, new Ending(SessionEnding.LOST_TO_ITS_OWN_CALL, "was lost with its worker, which "
                    + worker.endingReason() + " in this session's own call."));
        }
        session.worker = null;
    }

    /**
     * What a caller holding a session that has just ended (while it waited for the lock, or in its rebuild) is
     * told; the id is free again afterwards, as after {@link #open} reported it.
     */
    synchronized ExecutionResult takeEnding(Session session) {
        Ending ending = sessions.get(session.id) == null ? endings.remove(session.id) : null;
        return ending == null
                ? ExecutionResult.setupError("Session '" + session.id + "' ended while this call waited; call again.")
                : ExecutionResult.sessionEnded(ending.why(), ended(session.id, ending.how()));
    }

    /** Running the session's calls again did not rebuild it: it ends, and its caller is told why. */
    ExecutionResult notRebuilt(Session session, String why) {
        String how = "was lost with its worker and could not be rebuilt: " + why + ".";
        synchronized (this) {
            sessions.remove(session.id, session); // this caller is told now: no ending to remember
        }
        closeInWorker(session);
        return ExecutionResult.sessionEnded(SessionEnding.NOT_REBUILT, ended(session.id, how));
    }

    /**
     * Forgets a session whose first call never reached a worker, so its id starts afresh. A session that has run
     * stays (one waiting to be rebuilt keeps its calls for the next try). Under the session's lock.
     */
    synchronized void discardUnbound(Session session) {
        if (session.worker == null && session.calls == 0 && !session.displaced) {
            sessions.remove(session.id, session);
        }
    }

    /** Whose sessions a worker holds, as placement sees it. */
    enum Holders {
        NONE, ONLY_THIS_PRINCIPAL, OTHERS
    }

    /** Whether the worker holds any session. */
    synchronized boolean holdsAny(WorkerProcess worker) {
        return sessions.values().stream().anyMatch(s -> s.worker == worker);
    }

    /** Whose sessions the worker holds, seen from {@code principal} (null over stdio). */
    synchronized Holders holders(WorkerProcess worker, String principal) {
        Holders holders = Holders.NONE;
        for (Session session : sessions.values()) {
            if (session.worker == worker) {
                if (!Objects.equals(session.principal, principal)) {
                    return Holders.OTHERS;
                }
                holders = Holders.ONLY_THIS_PRINCIPAL;
            }
        }
        return holders;
    }

    /** Sessions ended since the server started, by why; every reason present, 0 for none. */
    synchronized Map<SessionEnding, Long> ended() {
        Map<SessionEnding, Long> copy = new EnumMap<>(SessionEnding.class);
        for (SessionEnding why : SessionEnding.values()) {
            copy.put(why, endedSoFar.getOrDefault(why, 0L));
        }
        return copy;
    }

    synchronized int size() {
        return sessions.size();
    }

    private String evictionReason(Session closed) {
        return "was closed because more than " + settings.max() + " sessions were open" + (closed.principal == null
                ? " and it was the least recently used."
                : ", its principal held the most of them, and it was that principal's least recently used.");
    }

    private String principalShareReason(Session closed) {
        return closed.principal == null
                ? "was closed because more than " + settings.perPrincipal()
                        + " sessions were open (sessions.max-per-principal)"
                        + " and it was the least recently used."
                : "was closed because its principal held " + settings.perPrincipal()
                        + " sessions (sessions.max-per-principal)"
                        + " and it was that principal's least recently used.";
    }

    private String fullWorkerReason(Session closed) {
        return "was closed because its worker held " + settings.perWorker()
                + " sessions (sessions.per-worker, which follows"
                + " worker.heap)" + (closed.principal == null
                ? " and it was the least recently used there."
                : ", its principal held the most of them there, and it was that principal's least recently used.");
    }

    private String expiryReason() {
        return "expired after " + describe(settings.idleTimeout()) + " without a call.";
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
