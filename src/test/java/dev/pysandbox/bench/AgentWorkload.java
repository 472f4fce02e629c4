package dev.pysandbox.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import dev.pysandbox.bench.SpeedBenchmark.Machine;
import dev.pysandbox.bench.SpeedBenchmark.Server;

/**
 * The agent workload (bench/agent-workload, issue 10): the corpus of code agents typically send, each snippet as
 * text the server has never seen (a fresh comment line), through the real server and the MCP Java SDK client,
 * against {@code python3 -c} of the same text. CPython is timed first, while no server runs, because the
 * server's background compilation slows a CPython beside it (measured: 2.6 s against 6.0 s for a corpus).
 * Prints a Markdown section for BENCHMARKS.md.
 */
public final class AgentWorkload {
    private static final int CPYTHON_RUNS = 3;
    private static final int LAUNCHES = 3;
    private static final int WARM_PASSES = 3;
    /** An agent's pace: the model writes for seconds between two calls; this is a short such pause. */
    private static final int AGENT_PAUSE_MILLIS = 1_000;
    private static final int CALLS_BEFORE_WARM = 200;
    private static final String FIRST_CALL = "import statistics; print(statistics.mean([1, 2, 3]))";

    record Snippet(String name, String code, String expected) {
        /** The snippet behind a comment line no call has sent before, so no cache has seen the text. */
        String fresh() {
            return "# " + UUID.randomUUID() + "\n" + code;
        }
    }

    /** One snippet's round trip in ms and whether its output was CPython's. */
    record Timing(double millis, boolean identical) {
    }

    private final Path launcher;
    private final List<Snippet> corpus;
    private final List<String> flags;
    private final List<String> out = new ArrayList<>();

    private AgentWorkload(Path launcher, List<Snippet> corpus, List<String> flags) {
        this.launcher = launcher;
        this.corpus = corpus;
        this.flags = flags;
    }

    /**
     * Arguments: launcher, corpus folder, BENCHMARKS.md (or -), then server flags to compare variants. The
     * system property {@code bench.section} names the section of BENCHMARKS.md it writes (the packages corpus
     * has its own) and {@code bench.title} its heading.
     */
    public static void main(String[] args) throws Exception {
        String name = System.getProperty("bench.section", "bench/agent-workload");
        if (!args[2].equals("-")) {
            BenchmarksFile.checkOrExit(Path.of(args[2]), name);
        }
        AgentWorkload bench = new AgentWorkload(Path.of(args[0]), load(Path.of(args[1])), List.of(args).subList(3, args.length));
        bench.run();
        String section = String.join("\n", bench.out) + "\n";
        System.out.print(section);
        if (!args[2].equals("-")) {
            BenchmarksFile.writeOrExit(Path.of(args[2]), name, section);
        }
        System.exit(0);
    }

    static List<Snippet> load(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Snippet> snippets = new ArrayList<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".py")).sorted().toList()) {
                String name = file.getFileName().toString().replaceAll("\\.py$", "");
                snippets.add(new Snippet(name, Files.readString(file), Files.readString(dir.resolve(name + ".out"))));
            }
            return snippets;
        }
    }

    private void run() throws Exception {
        line("## " + System.getProperty("bench.title", "Agent workload: the code agents send, new text each call, against `python3 -c`"));
        line("");
        line("Command: `bench/agent-workload` (real server via `bin/python-sandbox-mcp`"
                + (flags.isEmpty() ? " on the default config" : " with " + String.join(" ", flags))
                + ", MCP Java SDK client over stdio, no session unless stated). Each call sends its snippet behind a "
                + "fresh comment line. CPython is the interpreter binary, timed before the server starts.");
        line("");
        line("Run of " + LocalDate.now() + " on " + Machine.describe() + ".");
        line("");

        String cpython = Machine.python3Executable();
        Map<String, Timing> baseline = new HashMap<>();
        for (Snippet snippet : corpus) {
            List<Double> runs = new ArrayList<>();
            boolean identical = true;
            for (int i = 0; i < CPYTHON_RUNS; i++) {
                long start = System.nanoTime();
                String printed = cpython(cpython, snippet.fresh());
                runs.add(millis(start));
                identical &= printed.equals(snippet.expected());
            }
            baseline.put(snippet.name(), new Timing(SpeedBenchmark.median(runs), identical));
        }
        List<Double> printOne = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long start = System.nanoTime();
            cpython(cpython, "print(1)");
            printOne.add(millis(start));
        }
        long firstStart = System.nanoTime();
        cpython(cpython, FIRST_CALL);
        double cpythonFirst = millis(firstStart);

        List<Double> toList = new ArrayList<>();
        List<Double> toFirst = new ArrayList<>();
        for (int i = 0; i < LAUNCHES; i++) {
            long launch = System.nanoTime();
            try (Server server = Server.start(launcher, flags)) {
                server.client.listTools();
                toList.add(seconds(launch));
                server.python(FIRST_CALL);
                toFirst.add(seconds(launch));
            }
        }

        Map<String, Timing> fresh;
        Map<String, Timing> warm;
        Map<String, Timing> paced;
        Map<String, Timing> session;
        List<Double> backToBack = new ArrayList<>();
        try (Server server = Server.start(launcher, flags)) {
            server.python(FIRST_CALL);
            int calls = 1;
            fresh = pass(server, null, 0);
            calls += corpus.size();
            for (int i = 0; i < 20; i++) {
                long start = System.nanoTime();
                server.python("print(1)");
                backToBack.add(millis(start));
            }
            calls += 20;
            for (; calls < CALLS_BEFORE_WARM; calls++) {
                server.python("# " + calls + "\nprint(sum(i * i for i in range(" + calls + ")))");
            }
            List<Map<String, Timing>> passes = new ArrayList<>();
            for (int i = 0; i < WARM_PASSES; i++) {
                passes.add(pass(server, null, 0));
            }
            warm = medianOf(passes);
            paced = pass(server, null, AGENT_PAUSE_MILLIS);
            session = pass(server, "agent-workload-" + UUID.randomUUID(), 0);
        }

        line("| measurement | this server | CPython | ratio |");
        line("| --- | --- | --- | --- |");
        line(String.format("| launch to `tools/list` answered, median of %d launches (max) | %.2f s (%.2f s) | | target ≤ 1.5 s |",
                LAUNCHES, SpeedBenchmark.median(toList), java.util.Collections.max(toList)));
        line(String.format("| launch to the first `%s` answered, median of %d launches (max) | %.2f s (%.2f s) | %.0f ms | target ≤ 3 s |",
                FIRST_CALL, LAUNCHES, SpeedBenchmark.median(toFirst), java.util.Collections.max(toFirst), cpythonFirst));
        line(String.format("| `print(1)` back to back after %d calls, median of 20 | %.1f ms | %.1f ms | %.2fx (target ≤ 0.2x) |",
                corpus.size() + 1, SpeedBenchmark.median(backToBack), SpeedBenchmark.median(printOne),
                SpeedBenchmark.median(backToBack) / SpeedBenchmark.median(printOne)));
        line("");
        line("Per snippet, round trip in ms (CPython: median of " + CPYTHON_RUNS + " runs of `python3 -c`). Calls go "
                + "back to back unless stated: (a) right after launch; (b) after " + CALLS_BEFORE_WARM + " calls, median of "
                + WARM_PASSES + " passes; (b') the same server, calls " + AGENT_PAUSE_MILLIS + " ms apart as at an agent's "
                + "pace; (c) all in one session. Ratio = this server / CPython; \"same\" = stdout identical to CPython's.");
        line("");
        line("| snippet | CPython | (a) just started | ratio | same | (b) after " + CALLS_BEFORE_WARM
                + " calls | ratio | same | (b') at an agent's pace | ratio | same | (c) one session | ratio | same |");
        line("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        table(corpus.stream().map(Snippet::name).toList(), baseline, List.of(fresh, warm, paced, session))
                .forEach(this::line);
        line("");
        line("Targets for (b): geometric mean ≤ 2x, worst ≤ 5x, every output identical.");
    }

    /**
     * One pass over the corpus, each snippet as new text, {@code pauseMillis} apart; in a session if
     * {@code session} is not null.
     */
    private Map<String, Timing> pass(Server server, String session, int pauseMillis) throws InterruptedException {
        return pass(server, corpus, session, pauseMillis);
    }

    /** One pass over {@code corpus} (see {@link #pass(Server, String, int)}). */
    static Map<String, Timing> pass(Server server, List<Snippet> corpus, String session, int pauseMillis)
            throws InterruptedException {
        Map<String, Timing> timings = new HashMap<>();
        for (Snippet snippet : corpus) {
            Thread.sleep(pauseMillis);
            Map<String, Object> arguments = new HashMap<>(Map.of("language", "python", "code", snippet.fresh(), "timeout", 300));
            if (session != null) {
                arguments.put("session_id", session);
            }
            long start = System.nanoTime();
            Map<?, ?> result = server.execute(arguments);
            double took = millis(start);
            timings.put(snippet.name(), new Timing(took, "success".equals(result.get("status"))
                    && snippet.expected().equals(result.get("stdout"))));
        }
        return timings;
    }

    /**
     * The table's rows: per snippet the baseline's time, then each mode's time, ratio and whether its output was the
     * baseline's; last, each mode's geometric mean and worst ratio and how many outputs were identical.
     */
    static List<String> table(List<String> names, Map<String, Timing> baseline, List<Map<String, Timing>> modes) {
        List<String> rows = new ArrayList<>();
        for (String name : names) {
            Timing c = baseline.get(name);
            StringBuilder row = new StringBuilder(String.format("| %s | %.0f%s |", name, c.millis(),
                    c.identical() ? "" : " (output differs from the recorded one!)"));
            for (Map<String, Timing> mode : modes) {
                Timing t = mode.get(name);
                row.append(String.format(" %.0f | %.1fx | %s |", t.millis(), t.millis() / c.millis(), t.identical() ? "yes" : "**no**"));
            }
            rows.add(row.toString());
        }
        StringBuilder summary = new StringBuilder("| **geometric mean / worst** | |");
        for (Map<String, Timing> mode : modes) {
            double logSum = 0;
            double worst = 0;
            String worstName = "";
            long identical = 0;
            for (String name : names) {
                double ratio = mode.get(name).millis() / baseline.get(name).millis();
                logSum += Math.log(ratio);
                if (ratio > worst) {
                    worst = ratio;
                    worstName = name;
                }
                identical += mode.get(name).identical() ? 1 : 0;
            }
            summary.append(String.format(" | **%.2fx** / %.1fx (%s) | %d of %d |", Math.exp(logSum / names.size()),
                    worst, worstName, identical, names.size()));
        }
        rows.add(summary.toString());
        return rows;
    }

    static Map<String, Timing> medianOf(List<Map<String, Timing>> passes) {
        Map<String, Timing> median = new HashMap<>();
        for (String name : passes.get(0).keySet()) {
            median.put(name, new Timing(SpeedBenchmark.median(passes.stream().map(p -> p.get(name).millis()).toList()),
                    passes.stream().allMatch(p -> p.get(name).identical())));
        }
        return median;
    }

    static String cpython(String executable, String code) throws Exception {
        Process p = new ProcessBuilder(executable, "-c", code).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String printed = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        return printed;
    }

    private void line(String text) {
        out.add(text);
    }

    static double millis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
