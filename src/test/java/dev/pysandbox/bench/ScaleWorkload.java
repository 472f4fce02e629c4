package dev.pysandbox.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * The scale-out workload: MCP clients through HAProxy, each with sessions whose code counts its calls
 * ({@code n = globals().get('n', 0) + 1; result = n}), so every answer says whether the call reached the
 * interpreter that served the session's earlier calls; a share of hostile calls without a session among them;
 * one session whose code is padded past 20 KB (HAProxy reads session_id from the body only as far as its buffer
 * goes); and optionally one replica killed mid-run. Each session runs its calls one after another on its own
 * thread, so clients x sessions calls are in flight.
 *
 * <p>What a session's answers may be, and so what {@link Report#violations()} lists otherwise:
 * <ul>
 * <li>{@code session_new: false} and n = the previous n + 1: the call found its session;</li>
 * <li>{@code session_new: true} and n = 1: a new interpreter, allowed only as the session's first call, right
 * after the session was reported ended (a setup_error), or for a session of the killed replica once, after the
 * kill, where the survivor has never seen it;</li>
 * <li>a setup_error with a message: the session was lost (its worker was replaced, e.g. after a hostile call
 * sharing it) and the caller is told so;</li>
 * <li>a transport error only for a call in flight when the replica was killed, or sent in the moment before
 * HAProxy noticed; an HTTP 503 (no replica available, e.g. each is replacing its only worker) for any call.</li>
 * </ul>
 * Anything else is a silent wrong answer: a session split over two replicas, stale state resumed, a counter
 * that skipped or repeated; or a call that hung.
 */
public final class ScaleWorkload {
    static final String COUNTER = "n = globals().get('n', 0) + 1; result = n";
    /** The code of the long session: the counter after a comment longer than HAProxy's default 16 KiB buffer. */
    public static final String LONG_COUNTER = "# " + "padding to push session_id past 16 KiB of JSON. ".repeat(420) + "\n" + COUNTER;
    /** After a kill, HAProxy may send calls to the dead replica until it notices (a refused connection). */
    static final long KILL_WINDOW_NANOS = Duration.ofSeconds(5).toNanos();
    /** A call without a session that computes for about a second: what remote mode may send to another replica. */
    static final String FRESH = "total = sum(i * i for i in range(3_000_000))\nprint(total)";
    static final String FRESH_STDOUT = "8999995500000500000\n";
    public static final int LONG_COUNTER_BYTES = LONG_COUNTER.length();

    /** The hostile calls, sent without a session, each with what its answer must show. */
    public enum Hostile {
        /** A runaway loop: stopped at its 1 s timeout. */
        LOOP("while True:\n    pass", 1),
        /** A memory bomb: stopped at the worker's heap limit. */
        MEMORY("blocks = []\nwhile True:\n    blocks.append(bytearray(5 * 10 ** 7))", 20),
        /** A process: refused by the sandbox. */
        PROCESS("import os\nos.system('echo escaped > /tmp/scale-test-escaped')", 10),
        /** A flood of output: cut at the output limits. */
        OUTPUT("for i in range(1000):\n    print('x' * 100000)", 20);

        final String code;
        final int timeoutSeconds;

        Hostile(String code, int timeoutSeconds) {
            this.code = code;
            this.timeoutSeconds = timeoutSeconds;
        }
    }

    /**
     * @param tag                names this run's sessions (scale-TAG-cC-sS), apart from an earlier run's on the same cluster
     * @param clients            MCP clients (one SDK client each)
     * @param sessionsPerClient  sessions per client, each on its own thread
     * @param calls              calls in all, hostile ones included
     * @param hostileEvery       every this-many-th call of a session's thread is a hostile call instead (20 = 5 %)
     * @param freshEvery         every this-many-th call (not a hostile one) is a computation of about a second
     *                           without a session instead: a call remote mode may retry on another replica (0: none)
     * @param killAfter          kill replica {@code killReplica} once this many calls have answered (-1: never)
     * @param hangSeconds        a call answered later than this counts as hung
     */
    public record Options(String tag, int clients, int sessionsPerClient, int calls, int hostileEvery, int freshEvery,
            int killAfter, int killReplica, int hangSeconds) {
    }

    /** One call and its answer. */
    public record Call(String session, String kind, long startNanos, long endNanos, String status, Long n,
            Boolean sessionNew, String message, boolean stdoutTruncated, int stdoutLength, String transportError,
            String sessionEnded, Integer sessionRebuilt) {
        /**
         * HAProxy's own 503 (no replica available: each was replacing its only worker, or dead), or a replica's 503:
         * a clear refusal, counted apart.
         */
        public boolean unavailable() {
            return transportError != null && transportError.contains("unexpected status code: 503");
        }

        /**
         * The answer had begun when the connection broke: the status line and headers had come, and the body stopped
         * between two chunks, or short of its length (the JDK HTTP client's words). A proxy cannot send such a call to
         * another replica, since its client has part of an answer: it is in flight at the kill, not retryable.
         */
        public boolean answerBegun() {
            return transportError != null && (transportError.contains("chunked transfer encoding")
                    || transportError.contains("fixed content-length"));
        }

        public double millis() {
            return (endNanos - startNanos) / 1e6;
        }
    }

    public record Report(List<Call> calls, Map<String, String> replicaOfSession, String longSession, long killNanos,
            int killedReplica, List<String> violations, Map<String, Integer> restartsAfterKill,
            Map<String, Integer> setupErrors, double seconds) {

        /** Calls without a session that were running when the replica was killed, and how they ended. */
        public List<Call> retryableAtTheKill() {
            return calls.stream().filter(c -> c.session() == null && killNanos > 0 && c.startNanos() <= killNanos
                    && c.endNanos() >= killNanos).toList();
        }

        /** Sessions HAProxy routed to each replica, from the pre-run probe. */
        public Map<String, List<String>> sessionsPerReplica() {
            Map<String, List<String>> map = new TreeMap<>();
            replicaOfSession.forEach((s, r) -> map.computeIfAbsent(r, x -> new ArrayList<>()).add(s));
            return map;
        }

        /** Every call as a CSV line: start and duration (ms from the first call), kind, session, answer. */
        public void writeCsv(Path file) throws IOException {
            long zero = calls.isEmpty() ? 0 : calls.get(0).startNanos;
            StringBuilder csv = new StringBuilder("start_ms,duration_ms,kind,session,replica,status,n,session_new,message\n");
            for (Call c : calls) {
                csv.append((c.startNanos - zero) / 1_000_000).append(',').append(Math.round(c.millis())).append(',')
                        .append(c.kind).append(',').append(c.session == null ? "" : c.session).append(',')
                        .append(c.session == null ? "" : replicaOfSession.get(c.session)).append(',')
                        .append(c.status).append(',').append(c.n).append(',').append(c.sessionNew).append(',')
                        .append(String.valueOf(c.transportError != null ? c.transportError : c.message).replace(',', ';')
                                .replace('\n', ' '))
                        .append('\n');
            }
            if (killNanos > 0) {
                csv.append("# replica r").append(killedReplica).append(" killed at ").append((killNanos - zero) / 1_000_000)
                        .append(" ms\n");
            }
            Files.writeString(file, csv);
        }

        public List<Call> sessionCalls(String session) {
            return calls.stream().filter(c -> session.equals(c.session)).toList();
        }
    }

    private ScaleWorkload() {
    }

    public static Report run(LocalCluster cluster, Options options) throws Exception {
        Duration requestTimeout = Duration.ofSeconds(options.hangSeconds() + 30);
        List<McpSyncClient> clients = new ArrayList<>();
        for (int c = 0; c < options.clients(); c++) {
            clients.add(cluster.client(cluster.url(), requestTimeout));
        }
        int threads = options.clients() * options.sessionsPerClient();
        List<String> sessions = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            sessions.add("scale-" + options.tag() + "-c" + (t / options.sessionsPerClient()) + "-s" + (t % options.sessionsPerClient())
                    + (t == 0 ? "-long" : ""));
        }
        String longSession = sessions.get(0);
        Map<String, String> replicaOf = new LinkedHashMap<>();
        for (String session : sessions) {
            replicaOf.put(session, cluster.replicaOf(session));
        }
        List<Call> calls = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger answered = new AtomicInteger();
        AtomicLong killNanos = new AtomicLong(-1);
        CountDownLatch killDue = new CountDownLatch(options.killAfter() < 0 ? 0 : 1);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        long begin = System.nanoTime();
        // Each thread takes the next call number until all are taken, so every session stays busy to the end (and
        // has calls after the kill); every hostileEvery-th number is a hostile call, cycling through the kinds.
        AtomicInteger next = new AtomicInteger();
        for (int t = 0; t < threads; t++) {
            McpSyncClient client = clients.get(t / options.sessionsPerClient());
            String session = sessions.get(t);
            Thread worker = Thread.ofPlatform().name("scale-" + session).start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = next.incrementAndGet(); i <= options.calls(); i = next.incrementAndGet()) {
                    Call call;
                    if (options.hostileEvery() > 0 && i % options.hostileEvery() == 0) {
                        Hostile kind = Hostile.values()[(i / options.hostileEvery()) % Hostile.values().length];
                        call = call(client, null, "hostile-" + kind.name().toLowerCase(), kind.code, kind.timeoutSeconds);
                    } else if (options.freshEvery() > 0 && i % options.freshEvery() == 0) {
                        call = call(client, null, "fresh", FRESH, 60);
                    } else {
                        call = call(client, session, "counter", session.equals(longSession) ? LONG_COUNTER : COUNTER, 30);
                    }
                    calls.add(call);
                    if (answered.incrementAndGet() == options.killAfter()) {
                        killDue.countDown();
                    }
                }
            });
            workers.add(worker);
        }
        go.countDown();
        if (options.killAfter() >= 0) {
            killDue.await();
            killNanos.set(System.nanoTime());
            cluster.kill(options.killReplica());
        }
        for (Thread worker : workers) {
            worker.join(Duration.ofSeconds((long) options.hangSeconds() * options.calls()).toMillis());
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        for (McpSyncClient client : clients) {
            try {
                client.close();
            } catch (RuntimeException ignored) {
                // a client of a dead replica may not close cleanly
            }
        }
        List<Call> all = new ArrayList<>(calls);
        all.sort((a, b) -> Long.compare(a.startNanos, b.startNanos));
        return check(all, replicaOf, longSession, killNanos.get(), options, seconds);
    }

    private static Call call(McpSyncClient client, String session, String kind, String code, int timeoutSeconds) {
        // session_id after the code, as a client that builds its arguments in this order sends it: HAProxy must read
        // past the code to find it.
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("language", "python");
        arguments.put("code", code);
        arguments.put("timeout", timeoutSeconds);
        if (session != null) {
            arguments.put("session_id", session);
        }
        long start = System.nanoTime();
        try {
            CallToolResult result = client.callTool(new CallToolRequest("execute_code", arguments));
            long end = System.nanoTime();
            @SuppressWarnings("unchecked")
            Map<String, Object> s = (Map<String, Object>) result.structuredContent();
            if (s == null) {
                return new Call(session, kind, start, end, null, null, null, null, false, 0, "no structured content: " + result,
                        null, null);
            }
            Object n = s.get("result");
            @SuppressWarnings("unchecked")
            Map<String, Object> truncated = (Map<String, Object>) s.get("truncated");
            String stdout = String.valueOf(s.getOrDefault("stdout", ""));
            return new Call(session, kind, start, end, String.valueOf(s.get("status")),
                    n instanceof Number number ? number.longValue() : null, (Boolean) s.get("session_new"),
                    (String) s.get("error_message"), truncated != null && Boolean.TRUE.equals(truncated.get("stdout")),
                    stdout.length(), kind.equals("fresh") && !FRESH_STDOUT.equals(stdout) ? "wrong output: " + stdout : null,
                    (String) s.get("session_ended"), s.get("session_rebuilt") instanceof Number r ? r.intValue() : null);
        } catch (RuntimeException e) {
            return new Call(session, kind, start, System.nanoTime(), null, null, null, null, false, 0,
                    e.getClass().getSimpleName() + ": " + e.getMessage(), null, null);
        }
    }

    private static Report check(List<Call> calls, Map<String, String> replicaOf, String longSession, long killNanos,
            Options options, double seconds) {
        List<String> violations = new ArrayList<>();
        String killed = options.killAfter() >= 0 ? "r" + options.killReplica() : null;
        long hangNanos = Duration.ofSeconds(options.hangSeconds()).toNanos();
        Map<String, Integer> restartsAfterKill = new TreeMap<>();
        Map<String, Integer> setupErrors = new TreeMap<>();
        for (Call call : calls) {
            if (call.endNanos - call.startNanos > hangNanos) {
                violations.add("hang: a " + call.kind + " call of " + call.session + " took " + Math.round(call.millis()) + " ms");
            }
            // In flight at the kill, or sent before HAProxy noticed it: such a call may fail in transport.
            boolean nearKill = killNanos > 0 && call.startNanos <= killNanos + KILL_WINDOW_NANOS && call.endNanos >= killNanos;
            if (call.transportError != null && !nearKill && !call.unavailable()) {
                violations.add("transport error outside the kill: " + call.kind + " " + call.session + ": " + call.transportError);
            }
            // A call without a session whose replica died before its answer began is sent to another replica.
            if (call.session == null && call.transportError != null && nearKill && !call.unavailable()
                    && !call.answerBegun()) {
                violations.add("retryable call failed at the kill: " + call.kind + ": " + call.transportError);
            }
            if ("fresh".equals(call.kind) && call.transportError == null && !"success".equals(call.status)) {
                violations.add("fresh: a call without a session answered " + call.status + " (" + call.message + ")");
            }
            // Counter sessions run nothing that costs a worker: one told its session ended lost it to another's call.
            if (call.session != null && "setup_error".equals(call.status) && call.sessionEnded != null) {
                violations.add("lost to another's call: " + call.session + ": " + call.sessionEnded + ": " + call.message);
            }
            if (call.session == null && call.transportError == null) {
                checkHostile(call, violations);
            }
        }
        for (Map.Entry<String, String> entry : replicaOf.entrySet()) {
            String session = entry.getKey();
            boolean onKilled = entry.getValue().equals(killed);
            long previous = 0;
            boolean mayRestart = true; // the first call
            boolean uncertain = false; // the last call failed in transport: it may or may not have run
            boolean movedByKill = false;
            int setups = 0;
            for (Call call : calls) {
                if (!session.equals(call.session)) {
                    continue;
                }
                boolean afterKill = killNanos > 0 && call.endNanos >= killNanos;
                if (call.transportError != null) {
                    uncertain = true;
                    continue;
                }
                if ("setup_error".equals(call.status)) {
                    setups++;
                    if (call.message == null || call.message.isBlank()) {
                        violations.add("setup_error: " + session + ": a setup_error without a message");
                    }
                    mayRestart = true;
                    continue;
                }
                if (!"success".equals(call.status) || call.n == null || call.sessionNew == null) {
                    violations.add("counter: " + session + ": a counter call answered " + call.status + " (" + call.message + "), n="
                            + call.n + ", session_new=" + call.sessionNew);
                    continue;
                }
                if (call.sessionNew) {
                    boolean explained = mayRestart || uncertain || (onKilled && afterKill && !movedByKill);
                    if (call.n != 1) {
                        violations.add("new session: " + session + ": session_new: true but n=" + call.n);
                    } else if (!explained) {
                        violations.add("new session: " + session + ": unexplained, after n=" + previous
                                + " (session_new: true with no setup_error before it: the session moved between replicas)");
                    }
                    if (onKilled && afterKill) {
                        movedByKill = true;
                    }
                    if (afterKill) {
                        restartsAfterKill.merge(session, 1, Integer::sum);
                    }
                } else if (call.n != previous + 1 && !(uncertain && call.n == previous + 2)) {
                    violations.add("wrong counter: " + session + ": n=" + call.n + " after n=" + previous
                            + " (the call reached an interpreter other than the session's)");
                }
                previous = call.n;
                mayRestart = false;
                uncertain = false;
            }
            if (setups > 0) {
                setupErrors.put(session, setups);
            }
            if (onKilled && killNanos > 0 && !movedByKill
                    && calls.stream().anyMatch(c -> session.equals(c.session) && c.startNanos > killNanos && "success".equals(c.status))) {
                violations.add("no failover: " + session + " was on the killed replica " + killed + " but never reported session_new: true after the kill");
            }
        }
        return new Report(calls, replicaOf, longSession, killNanos, options.killReplica(), violations, restartsAfterKill,
                setupErrors, seconds);
    }

    /** A hostile call must come back with a clear status, not hang, and not reach the host. */
    private static void checkHostile(Call call, List<String> violations) {
        String why = switch (call.kind) {
            case "hostile-loop" -> "timeout".equals(call.status) ? null : "a runaway loop answered " + call.status;
            case "hostile-memory" -> "execution_error".equals(call.status) && call.message != null
                    && call.message.toLowerCase().contains("memory") ? null
                    : "a memory bomb answered " + call.status + " (" + call.message + ")";
            case "hostile-process" -> "execution_error".equals(call.status) && call.message != null
                    && call.message.contains("Blocked by the sandbox") ? null
                    : "os.system answered " + call.status + " (" + call.message + ")";
            case "hostile-output" -> call.stdoutTruncated && call.stdoutLength <= 1_100_000 ? null
                    : "a flood of output came back untruncated (" + call.stdoutLength + " chars, status " + call.status + ")";
            default -> null;
        };
        // A hostile call may also find its worker gone (replaced after another hostile call): a setup_error.
        if (why != null && !("setup_error".equals(call.status) && call.message != null)) {
            violations.add("hostile: " + why);
        }
    }

    /** The p-th percentile (0-100) of {@code values}, nearest rank. */
    static double percentile(List<Double> values, double p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
