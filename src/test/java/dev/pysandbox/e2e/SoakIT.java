package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The soak: calls at 16 in flight through a real server and client, with hostile payloads mixed in. Every call
 * must get its own right answer (no call lost, none answered with another's output or input, no hostile call
 * answered as a success); the server's resident memory after the run must be within 20% of what it was after
 * warm-up; and calls of new text must leave each worker's heap where it was.
 *
 * <p>In the suite it runs short, about two minutes, on the suite's servers (SandboxServer, without preloaded
 * modules, its workers on the shipped JVM): {@value #WARM_UP_CALLS} mixed calls to warm up, whose benign calls are
 * of new text, each defining functions, a class, a lambda and comprehensions, so that they also fill what a worker
 * keeps of recent code (the 1,024 most recently looked-up compiled functions, BENCHMARKS.md, "Sessions that last":
 * about ten a call, some 1,400 a worker); then {@value #SUITE_NEW_TEXT_CALLS} more calls of new text, over which
 * each worker's heap is measured, and after which each worker's live contexts are counted; then
 * {@value #SUITE_CALLS} mixed calls.
 *
 * <p>A worker that never closed the fresh contexts of its calls (the close left out of Worker) fails it by the
 * count, taken right after the new-text calls: 16 and 14, then 12 and 38 live contexts in such a worker's two runs,
 * against 7 and 7, then 7 and 6, in a worker that closes them (2026-11-28; by hand, 80 live after 80 calls spaced
 * out, against 5). The JVM reclaims unclosed contexts in time, so the heap alone did not catch it dependably: the
 * heap after a full collection of such a worker rose and fell (208 -> 104 MB in one run), and five of seven runs
 * with the close left out passed the heap check: at this size, at 100 calls after 200 filling calls, and at the
 * earlier size of 200 after 200 (2026-11-28). On workers preloading the shipped modules its calls timed out in the
 * warm-up after about 260 calls. The heap check has not been shown to catch the compiled-roots leak either (a run
 * without CodeRootCache, 2026-11-27, held at 92 -> 88 and 92 -> 91 MB): SessionsIT, whose sessions are evicted
 * round after round, is the test shown to catch that one. {@code bin/soak} runs the long soak, 10,000 mixed calls,
 * on the shipped configuration ({@code -Dsoak.calls}, {@code -Dsoak.new-text-calls} and
 * {@code -Dsoak.hostile-percent} tune it). This class also is the suite's load test: it replaced one of 500 benign
 * calls, which proved a subset of the same rules.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SoakIT {
    private static final int SUITE_CALLS = 300;
    private static final int SUITE_NEW_TEXT_CALLS = 100;
    private static final int CALLS = Integer.getInteger("soak.calls", SUITE_CALLS);
    private static final int NEW_TEXT_CALLS = Integer.getInteger("soak.new-text-calls", SUITE_NEW_TEXT_CALLS);
    private static final int HOSTILE_PERCENT = Integer.getInteger("soak.hostile-percent", 5);
    private static final int IN_FLIGHT = 16;
    private static final int WARM_UP_CALLS = 300;
    /**
     * How much a worker's heap after a full collection may grow over the new-text calls. Runs that leaked nothing
     * on code with no known leak grew by up to a fifth (2026-11-28, on workers warming themselves up as shipped: 73 -> 88 MB after 500 calls of
     * filling; 76 -> 84 after 250).
     */
    private static final double WORKER_HEAP_GROWTH = 1.25;
    /**
     * How many Python contexts a worker may hold once its calls have ended: its ready ones (worker.ready-contexts,
     * 2), the engine's own, and a few its closing thread has not reached yet; 6 or 7 were seen. A worker that closes
     * none holds those of its recent calls the JVM has not yet reclaimed: 12 to 38 were seen (see above).
     */
    private static final int LIVE_CONTEXTS_AFTER_CALLS = 10;
    private static final String TAG = "pysandbox.soak=" + ProcessHandle.current().pid();

    private static SandboxServer server;
    private static ProcessHandle serverProcess;
    private static long serverRssAfterWarmUp;
    private static Map<String, Long> serverNativeAfterWarmUp;

    /** A hostile payload and what its answer must look like. */
    record Hostile(String name, String code, int timeout, Predicate<Map<String, Object>> expected) {
    }

    static final List<Hostile> HOSTILE = List.of(
            new Hostile("blocked import", "import subprocess\nsubprocess.run(['id'])", 30, r -> error(r, "execution_error", "'subprocess' is not allowed")),
            new Hostile("read a host file", "print(open('/etc/passwd').read())", 30, r -> error(r, "execution_error", "Error")),
            new Hostile("infinite loop", "while True:\n    pass", 1, r -> error(r, "timeout", "timed out")),
            new Hostile("stdout flood", "while True:\n    print('x' * 1000)", 60, r -> error(r, "execution_error", "Output limit exceeded")),
            new Hostile("deep recursion", "def f(n):\n    return f(n + 1)\nf(0)", 60, r -> error(r, "execution_error", "RecursionError")),
            new Hostile("bytearray(10**11)", "b = bytearray(10**11)", 60, r -> error(r, "execution_error", "Error")),
            new Hostile("host class lookup", "print(__import__('java').type('java.lang.Runtime'))", 60, r -> error(r, "execution_error", "Error")),
            // Later benign calls use print and json.loads: they would go wrong if this leaked out of its context.
            new Hostile("poison print and json.loads for later calls",
                    "import json\njson.loads = lambda s: 'poisoned'\n"
                            + "b = __builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__\n"
                            + "b['print'] = lambda *a, **k: None\nresult = 'poisoned'",
                    60, r -> "success".equals(r.get("status")) && "poisoned".equals(r.get("result"))));

    @BeforeAll
    static void startAndWarmUp() throws Exception {
        // Native memory tracking in the server, so that if its memory grows the report says where.
        Map<String, String> tracking = Map.of("JAVA_TOOL_OPTIONS", "-XX:NativeMemoryTracking=summary");
        // The long soak stands for the shipped configuration; the suite's short one for the suite's servers.
        server = CALLS == SUITE_CALLS
                ? SandboxServer.startOnTheShippedWorkerJvm(tracking, "--worker.jvm-options=-D" + TAG)
                : SandboxServer.startAsShipped(tracking, "--worker.jvm-options=-D" + TAG);
        serverProcess = SandboxServer.serverTagged(TAG);
        // Warm up the way the run goes, 16 in flight with hostile calls among them, so the server has grown to its
        // working size and met each kind of call before its memory is measured. The benign calls are of new text,
        // so each worker also has its window of recent code full before its heap is measured.
        List<String> warmUpWrong = new CopyOnWriteArrayList<>();
        Map<String, AtomicInteger> warmUpHostile = new ConcurrentHashMap<>();
        callConcurrently(-WARM_UP_CALLS, 0, n -> mixed(n, warmUpWrong, warmUpHostile, SoakIT::checkNewText));
        assertEquals(List.of(), warmUpWrong);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /**
     * Each call defines functions, a class, a lambda and comprehensions of new text, as agent code does, in a
     * fresh context of its own. Run before the mixed calls, whose hostile ones may replace workers: the same
     * workers must serve the whole run, or the comparison would be between two workers.
     */
    @Test
    @Order(1)
    void callsOfNewTextLeaveEachWorkersHeapWhereItWas() throws Exception {
        List<String> wrong = new CopyOnWriteArrayList<>();
        List<ProcessHandle> workers = SandboxServer.workersTagged(TAG);
        assertTrue(!workers.isEmpty(), "the server's workers carry the tag");
        Map<Long, Long> before = heapsAfterCollection(workers);
        callConcurrently(0, NEW_TEXT_CALLS, n -> checkNewText(n, wrong));
        assertEquals(List.of(), wrong.stream().limit(20).toList(), wrong.size() + " wrong or lost answers");
        assertEquals(before.keySet(), pids(SandboxServer.workersTagged(TAG)),
                "a worker was replaced during the run, so its heap cannot be compared");
        // Contexts first: the full collection of the heap measurement would let the JVM reclaim unclosed ones.
        Map<Long, Long> contexts = liveContexts(workers);
        Map<Long, Long> after = heapsAfterCollection(workers);
        System.out.printf("[soak] live Python contexts in each worker after the calls: %s%n", contexts.values());
        System.out.printf("[soak] %d calls of new text; worker heap after a full collection, MB, before -> after: %s%n",
                NEW_TEXT_CALLS, describe(before, after));
        before.forEach((pid, heap) -> assertTrue(after.get(pid) <= heap * WORKER_HEAP_GROWTH,
                "worker " + pid + ": heap after a full collection grew from " + heap + " to " + after.get(pid) + " bytes"));
        contexts.forEach((pid, live) -> assertTrue(live <= LIVE_CONTEXTS_AFTER_CALLS,
                "worker " + pid + " holds " + live + " Python contexts after its calls ended: they were not closed"));
    }

    @Test
    @Order(2)
    void mixedCallsAreAllAnsweredRightAndServerMemoryStaysFlat() throws Exception {
        serverRssAfterWarmUp = residentKbAfterGc(serverProcess);
        serverNativeAfterWarmUp = committedKbByArea(serverProcess);
        List<String> wrong = new CopyOnWriteArrayList<>();
        Map<String, AtomicInteger> hostileCounts = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        callConcurrently(0, CALLS, n -> mixed(n, wrong, hostileCounts, SoakIT::checkBenign));
        double seconds = (System.nanoTime() - start) / 1e9;
        long rssAfterRun = residentKbAfterGc(serverProcess);
        Map<String, Long> nativeAfterRun = committedKbByArea(serverProcess);
        nativeAfterRun.forEach((area, kb) -> {
            long before = serverNativeAfterWarmUp.getOrDefault(area, 0L);
            if (Math.abs(kb - before) >= 1024) {
                System.out.printf("[soak] server %s: %d MB committed after warm-up, %d MB after the run%n",
                        area, before / 1024, kb / 1024);
            }
        });
        System.out.printf("[soak] %d calls (%s hostile) in %.0f s, %.1f calls/s; server RSS %d MB after warm-up, %d MB after the run%n",
                CALLS, hostileCounts, seconds, CALLS / seconds, serverRssAfterWarmUp / 1024, rssAfterRun / 1024);

        assertEquals(List.of(), wrong.stream().limit(20).toList(), wrong.size() + " wrong or lost answers");
        assertTrue(hostileCounts.values().stream().mapToInt(AtomicInteger::get).sum() > 0, "hostile calls were mixed in");
        assertTrue(rssAfterRun <= serverRssAfterWarmUp * 1.2,
                "server RSS grew from " + serverRssAfterWarmUp + " kB to " + rssAfterRun + " kB");
    }

    /** One call of the soak's traffic, numbered n; what it got wrong goes to {@code wrong}. */
    private interface Call {
        void make(int n);
    }

    /** A benign call numbered n, which checks its own answer; what it got wrong goes to the list. */
    private interface Benign {
        void check(int n, List<String> wrong);
    }

    /** Calls numbered {@code from} to {@code to - 1}, 16 at a time; a call that throws is counted as lost. */
    private static void callConcurrently(int from, int to, Call call) throws Exception {
        AtomicInteger next = new AtomicInteger(from);
        long start = System.nanoTime();
        ExecutorService clients = Executors.newFixedThreadPool(IN_FLIGHT);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < IN_FLIGHT; t++) {
            done.add(clients.submit(() -> {
                for (int n = next.getAndIncrement(); n < to; n = next.getAndIncrement()) {
                    call.make(n);
                    if (n > 0 && n % 1000 == 0) {
                        System.out.printf("[soak] %d calls sent, %.0f s, server RSS %d MB%n", n,
                                (System.nanoTime() - start) / 1e9, residentKb(serverProcess) / 1024);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        clients.shutdown();
    }

    /** Call n of mixed traffic: a hostile payload {@link #HOSTILE_PERCENT}% of the time, else {@code benign}. */
    private static void mixed(int n, List<String> wrong, Map<String, AtomicInteger> hostileCounts, Benign benign) {
        SplittableRandom random = new SplittableRandom(n);
        if (random.nextInt(100) >= HOSTILE_PERCENT) {
            benign.check(n, wrong);
            return;
        }
        Hostile hostile = HOSTILE.get(random.nextInt(HOSTILE.size()));
        hostileCounts.computeIfAbsent(hostile.name(), k -> new AtomicInteger()).incrementAndGet();
        try {
            Map<String, Object> result = server.execute(Map.of("language", "python", "code", hostile.code(),
                    "timeout", hostile.timeout()));
            if (!hostile.expected().test(result)) {
                wrong.add(n + " (" + hostile.name() + ") -> " + result);
            }
        } catch (RuntimeException e) {
            wrong.add(n + " (" + hostile.name() + ") -> lost: " + e);
        }
    }

    /** A call whose right answer depends on n: stdout, stdin echo and result must all be its own. */
    private static void checkBenign(int n, List<String> wrong) {
        String code = "import sys, json\nline = sys.stdin.readline().strip()\nprint(line, " + n + " * 7)\nresult = json.loads(line)";
        try {
            Map<String, Object> result = server.execute(Map.of("language", "python", "code", code, "stdin", "[" + n + "]\n"));
            Object value = result.get("result");
            boolean right = "success".equals(result.get("status"))
                    && ("[" + n + "] " + (n * 7L) + "\n").equals(result.get("stdout"))
                    && value instanceof List<?> list && list.size() == 1 && ((Number) list.get(0)).intValue() == n;
            if (!right) {
                wrong.add(n + " -> " + result);
            }
        } catch (RuntimeException e) {
            wrong.add(n + " -> lost: " + e);
        }
    }

    /** Code no earlier call sent, with the nested code objects GraalPy makes a compiled root of, answering n. */
    private static void checkNewText(int n, List<String> wrong) {
        int k = n < 0 ? 1_000_000 - n : n; // a name of its own for each call, the warm-up's (n < 0) too
        String code = """
                import statistics
                class Account_%1$d:
                    def __init__(self, owner):
                        self.owner = owner
                        self.entries = []
                    def add(self, amount):
                        self.entries.append(amount)
                        return self
                    def balance(self):
                        return sum(e for e in self.entries if e > -%1$d - 1)
                def scale_%1$d(values, factor=%1$d):
                    return [v * factor for v in values]
                def summary_%1$d(values):
                    by_parity = {k: [v for v in values if v %% 2 == k] for k in (0, 1)}
                    return {k: statistics.mean(v) if v else 0 for k, v in by_parity.items()}
                key_%1$d = lambda pair: (pair[1], pair[0] + %1$d)
                account = Account_%1$d('n%1$d').add(%1$d).add(1)
                ranked = sorted(enumerate(scale_%1$d([3, 1, 2])), key=key_%1$d)
                print(account.balance(), ranked[0][1], summary_%1$d([1, 2, 3, 4])[1])
                """.formatted(k);
        try {
            Map<String, Object> result = server.python(code);
            String expected = (k + 1) + " " + k + " 2\n";
            if (!"success".equals(result.get("status")) || !expected.equals(result.get("stdout"))) {
                wrong.add(n + " -> " + result);
            }
        } catch (RuntimeException e) {
            wrong.add(n + " -> lost: " + e);
        }
    }

    private static boolean error(Map<String, Object> result, String status, String messagePart) {
        return status.equals(result.get("status")) && String.valueOf(result.get("error_message")).contains(messagePart);
    }

    private static java.util.Set<Long> pids(List<ProcessHandle> processes) {
        return processes.stream().map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
    }

    private static String describe(Map<Long, Long> before, Map<Long, Long> after) {
        List<String> rows = new ArrayList<>();
        before.forEach((pid, heap) -> rows.add(heap / (1024 * 1024) + " -> " + after.get(pid) / (1024 * 1024)));
        return String.join(", ", rows);
    }

    /**
     * Each worker's heap in use right after a full collection (jcmd GC.run, then GC.heap_info), in bytes: what the
     * worker keeps, not garbage waiting for the collector.
     */
    private static Map<Long, Long> heapsAfterCollection(List<ProcessHandle> workers) throws IOException, InterruptedException {
        Map<Long, Long> heaps = new TreeMap<>();
        for (ProcessHandle worker : workers) {
            assertEquals(0, jcmd(worker, "GC.run").exitCode(), "jcmd GC.run on worker " + worker.pid());
            JcmdOutput info = jcmd(worker, "GC.heap_info");
            assertEquals(0, info.exitCode(), info.text());
            heaps.put(worker.pid(), heapUsedBytes(info.text()));
        }
        return heaps;
    }

    /**
     * Each worker's live Python contexts (Truffle's PolyglotContextImpl instances), from a class histogram, which
     * the JVM takes after a full collection: a context closed and dropped is gone from it.
     */
    private static Map<Long, Long> liveContexts(List<ProcessHandle> workers) throws IOException, InterruptedException {
        Map<Long, Long> live = new TreeMap<>();
        for (ProcessHandle worker : workers) {
            JcmdOutput histogram = jcmd(worker, "GC.class_histogram");
            assertEquals(0, histogram.exitCode(), histogram.text());
            live.put(worker.pid(), contextInstances(histogram.text()));
        }
        return live;
    }

    private static long contextInstances(String histogram) {
        Matcher row = Pattern.compile("(?m)^\\s*\\d+:\\s+(\\d+)\\s+\\d+\\s+com\\.oracle\\.truffle\\.polyglot\\.PolyglotContextImpl\\s*$")
                .matcher(histogram);
        assertTrue(row.find(), "no Python contexts at all (a worker always has its ready ones) in: " + histogram);
        return Long.parseLong(row.group(1));
    }

    /**
     * The old generation in use from GC.heap_info, right after a full collection: the workers run the parallel
     * collector, whose full collection moves what survives there. The young generation is left out, since a worker
     * building its next contexts allocates again between the collection and the report.
     */
    static long heapUsedBytes(String heapInfo) {
        Matcher used = Pattern.compile("(?m)^ParOldGen\\s+total \\d+K, used (\\d+)K").matcher(heapInfo);
        assertTrue(used.find(), "no old generation in: " + heapInfo);
        return Long.parseLong(used.group(1)) * 1024;
    }

    /**
     * Resident memory once garbage is gone: a full GC first, then what glibc holds of freed memory handed back
     * (jcmd System.trim_native_heap, which the server also does every 10 s), so the comparison sees memory the
     * server keeps, not garbage waiting for the collector or freed memory not yet returned.
     */
    private static long residentKbAfterGc(ProcessHandle process) throws IOException, InterruptedException {
        assertEquals(0, jcmd(process, "GC.run").exitCode(), "jcmd GC.run on the server");
        assertEquals(0, jcmd(process, "System.trim_native_heap").exitCode(), "jcmd System.trim_native_heap on the server");
        Thread.sleep(1_000);
        return residentKb(process);
    }

    /** The server JVM's own account of its committed memory, by area (Java Heap, Class, Code, Thread...). */
    private static Map<String, Long> committedKbByArea(ProcessHandle process) throws IOException, InterruptedException {
        String text = jcmd(process, "VM.native_memory", "summary").text();
        Map<String, Long> committed = new TreeMap<>();
        Matcher area = Pattern.compile("(?m)^(?:-\\s+(.+?)|(Total)):? \\(?reserved=\\d+KB, committed=(\\d+)KB").matcher(text);
        while (area.find()) {
            committed.put(area.group(1) != null ? area.group(1) : area.group(2), Long.parseLong(area.group(3)));
        }
        return committed;
    }

    private record JcmdOutput(String text, int exitCode) {
    }

    /** Runs a jcmd diagnostic command against a JVM, with the JDK these tests run on. */
    private static JcmdOutput jcmd(ProcessHandle process, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(process.pid())));
        line.addAll(List.of(command));
        Process jcmd = new ProcessBuilder(line).redirectErrorStream(true).start();
        String text = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        return new JcmdOutput(text, jcmd.waitFor());
    }

    private static long residentKb(ProcessHandle process) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        throw new AssertionError("no VmRSS for " + process.pid());
    }
}
