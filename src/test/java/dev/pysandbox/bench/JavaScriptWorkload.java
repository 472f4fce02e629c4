package dev.pysandbox.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import dev.pysandbox.bench.AgentWorkload.Timing;
import dev.pysandbox.bench.SpeedBenchmark.Machine;
import dev.pysandbox.bench.SpeedBenchmark.Server;

/**
 * The JavaScript agent workload (bench/javascript-workload, issue 41): the corpus in bench/agent-corpus-js, each
 * snippet as text the server has never seen (a fresh comment line), through the real server, against
 * {@code node -e} of the same text. Node is timed first, while no server runs, as CPython is in
 * {@link AgentWorkload}. Prints a Markdown section for BENCHMARKS.md.
 */
public final class JavaScriptWorkload {
    private static final int NODE_RUNS = 3;
    private static final int BACK_TO_BACK_PASSES = 3;
    /** An agent's pace: the model writes for seconds between two calls; this is a short such pause. */
    private static final int AGENT_PAUSE_MILLIS = 1_000;

    /** One snippet of the corpus and the stdout Node printed for it (recorded beside it as NAME.out). */
    record Snippet(String name, String code, String expected) {
        /** The snippet behind a comment line no call has sent before, so no cache has seen the text. */
        String fresh() {
            return "// " + UUID.randomUUID() + "\n" + code;
        }
    }

    static List<Snippet> load(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Snippet> snippets = new ArrayList<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".js")).sorted().toList()) {
                String name = file.getFileName().toString().replaceAll("\\.js$", "");
                snippets.add(new Snippet(name, Files.readString(file), Files.readString(dir.resolve(name + ".out"))));
            }
            return snippets;
        }
    }

    /** Arguments: launcher, corpus folder, BENCHMARKS.md (or -), then server flags. */
    public static void main(String[] args) throws Exception {
        String name = "bench/javascript-workload";
        Path report = args[2].equals("-") ? null : Path.of(args[2]);
        if (report != null) {
            BenchmarksFile.checkOrExit(report, name);
        }
        List<String> out = run(Path.of(args[0]), load(Path.of(args[1])), List.of(args).subList(3, args.length));
        String section = String.join("\n", out) + "\n";
        System.out.print(section);
        if (report != null) {
            BenchmarksFile.writeOrExit(report, name, section);
        }
        System.exit(0);
    }

    private static List<String> run(Path launcher, List<Snippet> corpus, List<String> flags) throws Exception {
        List<String> out = new ArrayList<>();
        Map<String, Timing> node = new HashMap<>();
        for (Snippet snippet : corpus) {
            List<Double> runs = new ArrayList<>();
            boolean identical = true;
            for (int i = 0; i < NODE_RUNS; i++) {
                long start = System.nanoTime();
                identical &= node(snippet.fresh()).equals(snippet.expected());
                runs.add(AgentWorkload.millis(start));
            }
            node.put(snippet.name(), new Timing(SpeedBenchmark.median(runs), identical));
        }
        Map<String, Timing> first;
        Map<String, Timing> backToBack;
        Map<String, Timing> paced;
        double firstCallSeconds;
        try (Server server = Server.start(launcher, flags)) {
            long launch = System.nanoTime();
            server.client.listTools();
            first = pass(server, corpus, 0);
            firstCallSeconds = first.get(corpus.get(0).name()).millis() / 1000;
            List<Map<String, Timing>> passes = new ArrayList<>();
            for (int i = 0; i < BACK_TO_BACK_PASSES; i++) {
                passes.add(pass(server, corpus, 0));
            }
            backToBack = AgentWorkload.medianOf(passes);
            paced = pass(server, corpus, AGENT_PAUSE_MILLIS);
            System.err.printf("javascript-workload: server ran %.0f s%n", (System.nanoTime() - launch) / 1e9);
        }
        out.add("## JavaScript agent workload: the code agents send, new text each call, against `node -e`");
        out.add("");
        out.add("Command: `bench/javascript-workload` (real server via `bin/python-sandbox-mcp`"
                + (flags.isEmpty() ? " on the default config" : " with " + String.join(" ", flags))
                + ", MCP Java SDK client over stdio, `language: \"javascript\"`, no session). Each call sends its snippet"
                + " behind a fresh comment line. Node is `node -e` (" + nodeVersion() + "), timed before the server"
                + " starts, median of " + NODE_RUNS + " runs.");
        out.add("");
        out.add("Run of " + LocalDate.now() + " on " + Machine.describe() + ".");
        out.add("");
        out.add("Round trip in ms. (a) the first pass of a just-started server (its first call includes the first"
                + " JavaScript context of the worker); (b) back to back, median of " + BACK_TO_BACK_PASSES
                + " later passes; (b') calls " + AGENT_PAUSE_MILLIS + " ms apart, as at an agent's pace. Ratio = this"
                + " server / Node; \"same\" = stdout identical to Node's.");
        out.add("");
        out.add("| snippet | node -e | (a) first pass | ratio | same | (b) back to back | ratio | same"
                + " | (b') agent's pace | ratio | same |");
        out.add("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        out.addAll(AgentWorkload.table(corpus.stream().map(Snippet::name).toList(), node,
                List.of(first, backToBack, paced)));
        out.add("");
        out.add(String.format("The first JavaScript call of a just-started server took %.2f s. Target (issue 41):"
                + " geometric mean ≤ 3x `node -e` at an agent's pace, every output identical.", firstCallSeconds));
        return out;
    }

    private static Map<String, Timing> pass(Server server, List<Snippet> corpus, int pauseMillis)
            throws InterruptedException {
        Map<String, Timing> timings = new HashMap<>();
        for (Snippet snippet : corpus) {
            Thread.sleep(pauseMillis);
            long start = System.nanoTime();
            Map<?, ?> result = server.execute(new HashMap<>(Map.of("language", "javascript", "code", snippet.fresh(),
                    "timeout", 300)));
            double took = AgentWorkload.millis(start);
            timings.put(snippet.name(), new Timing(took, "success".equals(result.get("status"))
                    && snippet.expected().equals(result.get("stdout"))));
        }
        return timings;
    }

    static String node(String code) throws Exception {
        Process p = new ProcessBuilder("node", "-e", code).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return printed;
    }

    private static String nodeVersion() throws Exception {
        return node("process.stdout.write(process.version)").strip();
    }
}
