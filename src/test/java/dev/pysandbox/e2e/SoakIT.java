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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The soak: many calls at 16 in flight with hostile payloads mixed in. Every call must get its own right
 * answer (no call lost, none answered with another's output, no hostile call answered as a success), and
 * the server's resident memory after the run must be within 20% of what it was after warm-up.
 *
 * <p>Out of the default suite because it runs for tens of minutes: every hostile call recycles a worker.
 * Run it with {@code bin/soak} (README); {@code -Dsoak.calls}, {@code -Dsoak.hostile-percent} tune it.
 */
@EnabledIfSystemProperty(named = "soak", matches = "true")
class SoakIT {
    private static final int CALLS = Integer.getInteger("soak.calls", 10_000);
    private static final int HOSTILE_PERCENT = Integer.getInteger("soak.hostile-percent", 5);
    private static final int IN_FLIGHT = 16;
    private static final int WARM_UP_CALLS = 400;
    private static final String TAG = "pysandbox.soak=" + ProcessHandle.current().pid();

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

    @Test
    void tenThousandMixedCallsAllAnsweredRightAndServerMemoryStaysFlat() throws Exception {
        // Native memory tracking in the server, so that if its memory grows the report says where.
        Map<String, String> tracking = Map.of("JAVA_TOOL_OPTIONS", "-XX:NativeMemoryTracking=summary");
        try (SandboxServer server = SandboxServer.start(tracking, "--worker.jvm-options=-D" + TAG)) {
            ProcessHandle serverProcess = SandboxServer.serverTagged(TAG);
            // Warm up the way the run goes, 16 in flight, so the server's heap has grown to its working size.
            List<String> warmUpWrong = new CopyOnWriteArrayList<>();
            callConcurrently(server, serverProcess, -WARM_UP_CALLS, 0, 0, warmUpWrong, new ConcurrentHashMap<>());
            assertEquals(List.of(), warmUpWrong);
            long rssAfterWarmUp = residentKbAfterGc(serverProcess);
            Map<String, Long> nativeAfterWarmUp = committedKbByArea(serverProcess);

            List<String> wrong = new CopyOnWriteArrayList<>();
            Map<String, AtomicInteger> hostileCounts = new ConcurrentHashMap<>();
            long start = System.nanoTime();
            callConcurrently(server, serverProcess, 0, CALLS, HOSTILE_PERCENT, wrong, hostileCounts);
            double seconds = (System.nanoTime() - start) / 1e9;
            long rssAfterRun = residentKbAfterGc(serverProcess);
            Map<String, Long> nativeAfterRun = committedKbByArea(serverProcess);
            nativeAfterRun.forEach((area, kb) -> {
                long before = nativeAfterWarmUp.getOrDefault(area, 0L);
                if (Math.abs(kb - before) >= 1024) {
                    System.out.printf("[soak] server %s: %d MB committed after warm-up, %d MB after the run%n",
                            area, before / 1024, kb / 1024);
                }
            });
            System.out.printf("[soak] %d calls (%s hostile) in %.0f s, %.1f calls/s; server RSS %d MB after warm-up, %d MB after the run%n",
                    CALLS, hostileCounts, seconds, CALLS / seconds, rssAfterWarmUp / 1024, rssAfterRun / 1024);

            assertEquals(List.of(), wrong.stream().limit(20).toList(), wrong.size() + " wrong or lost answers");
            assertTrue(hostileCounts.values().stream().mapToInt(AtomicInteger::get).sum() > 0, "hostile calls were mixed in");
            assertTrue(rssAfterRun <= rssAfterWarmUp * 1.2,
                    "server RSS grew from " + rssAfterWarmUp + " kB to " + rssAfterRun + " kB");
        }
    }

    /** Calls numbered {@code from} to {@code to - 1}, 16 at a time; each wrong or lost answer is added to {@code wrong}. */
    private static void callConcurrently(SandboxServer server, ProcessHandle serverProcess, int from, int to,
            int hostilePercent, List<String> wrong, Map<String, AtomicInteger> hostileCounts) throws Exception {
        AtomicInteger next = new AtomicInteger(from);
        long start = System.nanoTime();
        ExecutorService clients = Executors.newFixedThreadPool(IN_FLIGHT);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < IN_FLIGHT; t++) {
            done.add(clients.submit(() -> {
                for (int n = next.getAndIncrement(); n < to; n = next.getAndIncrement()) {
                    SplittableRandom random = new SplittableRandom(n);
                    try {
                        if (random.nextInt(100) < hostilePercent) {
                            Hostile hostile = HOSTILE.get(random.nextInt(HOSTILE.size()));
                            hostileCounts.computeIfAbsent(hostile.name(), k -> new AtomicInteger()).incrementAndGet();
                            Map<String, Object> result = server.execute(Map.of("language", "python",
                                    "code", hostile.code(), "timeout", hostile.timeout()));
                            if (!hostile.expected().test(result)) {
                                wrong.add(n + " (" + hostile.name() + ") -> " + result);
                            }
                        } else {
                            checkBenign(server, n, wrong);
                        }
                    } catch (RuntimeException e) {
                        wrong.add(n + " -> lost: " + e);
                    }
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

    /** A call whose right answer depends on n: stdout, stdin echo and result must all be its own. */
    private static void checkBenign(SandboxServer server, int n, List<String> wrong) {
        String code = "import sys, json\nline = sys.stdin.readline().strip()\nprint(line, " + n + " * 7)\nresult = json.loads(line)";
        Map<String, Object> result = server.execute(Map.of("language", "python", "code", code, "stdin", "[" + n + "]\n"));
        Object value = result.get("result");
        boolean right = "success".equals(result.get("status"))
                && ("[" + n + "] " + (n * 7L) + "\n").equals(result.get("stdout"))
                && value instanceof List<?> list && list.size() == 1 && ((Number) list.get(0)).intValue() == n;
        if (!right) {
            wrong.add(n + " -> " + result);
        }
    }

    private static boolean error(Map<String, Object> result, String status, String messagePart) {
        return status.equals(result.get("status")) && String.valueOf(result.get("error_message")).contains(messagePart);
    }

    /**
     * Resident memory once garbage is gone: a full GC first (jcmd), so the comparison sees memory the server
     * keeps, not garbage that happens to be waiting for the collector.
     */
    private static long residentKbAfterGc(ProcessHandle process) throws IOException, InterruptedException {
        assertEquals(0, jcmd(process, "GC.run").exitCode(), "jcmd GC.run on the server");
        Thread.sleep(1_000);
        return residentKb(process);
    }

    /** The server JVM's own account of its committed memory, by area (Java Heap, Class, Code, Thread...). */
    private static Map<String, Long> committedKbByArea(ProcessHandle process) throws IOException, InterruptedException {
        String text = jcmd(process, "VM.native_memory", "summary").text();
        Map<String, Long> committed = new java.util.TreeMap<>();
        java.util.regex.Matcher area = java.util.regex.Pattern
                .compile("(?m)^(?:-\\s+(.+?)|(Total)):? \\(?reserved=\\d+KB, committed=(\\d+)KB").matcher(text);
        while (area.find()) {
            committed.put(area.group(1) != null ? area.group(1) : area.group(2), Long.parseLong(area.group(3)));
        }
        return committed;
    }

    private record JcmdOutput(String text, int exitCode) {
    }

    /** Runs a jcmd diagnostic command against the server JVM, with the JDK these tests run on. */
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
            return readResidentKb(process);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long readResidentKb(ProcessHandle process) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        throw new AssertionError("no VmRSS for " + process.pid());
    }
}
