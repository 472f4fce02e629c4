package dev.pysandbox.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.pysandbox.bench.AgentWorkload.Snippet;
import dev.pysandbox.bench.AgentWorkload.Timing;
import dev.pysandbox.bench.SpeedBenchmark.Machine;
import dev.pysandbox.bench.SpeedBenchmark.Server;

/**
 * The curve of the agent workload (bench/agent-curve): how a just-started server's speed on the corpus grows pass by
 * pass, {@link #PASSES} passes back to back, each snippet as new text, then one pass in one session; against
 * {@code python3 -c} of the same texts, timed first while no server runs. Prints one Markdown row: the launcher's
 * label, each pass's total and geometric-mean ratio, whether every output was CPython's.
 */
public final class AgentCurve {
    static final int PASSES = 8;
    private static final int CPYTHON_RUNS = 3;

    private AgentCurve() {
    }

    /** Arguments: launcher, corpus folder, the row's label, then server flags. */
    public static void main(String[] args) throws Exception {
        Path launcher = Path.of(args[0]);
        List<Snippet> corpus = AgentWorkload.load(Path.of(args[1]));
        List<String> flags = List.of(args).subList(3, args.length);
        String cpython = Machine.python3Executable();
        Map<String, Double> baseline = new HashMap<>();
        for (Snippet snippet : corpus) {
            List<Double> runs = new ArrayList<>();
            for (int i = 0; i < CPYTHON_RUNS; i++) {
                long start = System.nanoTime();
                AgentWorkload.cpython(cpython, snippet.fresh());
                runs.add(AgentWorkload.millis(start));
            }
            baseline.put(snippet.name(), SpeedBenchmark.median(runs));
        }
        double cpythonTotal = baseline.values().stream().mapToDouble(Double::doubleValue).sum() / 1000;
        StringBuilder row = new StringBuilder("| " + args[2] + (flags.isEmpty() ? "" : " `" + String.join(" ", flags) + "`")
                + String.format(" | %.1f s |", cpythonTotal));
        boolean identical = true;
        try (Server server = Server.start(launcher, flags)) {
            for (int pass = 0; pass <= PASSES; pass++) {
                String session = pass == PASSES ? "agent-curve-" + UUID.randomUUID() : null;
                Map<String, Timing> timings = AgentWorkload.pass(server, corpus, session, 0);
                double total = 0;
                double logSum = 0;
                for (Snippet snippet : corpus) {
                    Timing timing = timings.get(snippet.name());
                    total += timing.millis() / 1000;
                    logSum += Math.log(timing.millis() / baseline.get(snippet.name()));
                    identical &= timing.identical();
                }
                row.append(String.format(" %.1f s (%.2fx) |", total, Math.exp(logSum / corpus.size())));
                System.err.println("agent-curve: " + (session == null ? "pass " + (pass + 1) : "one session") + ": "
                        + String.format("%.1f s", total));
            }
        }
        row.append(identical ? " yes |" : " **no** |");
        System.out.println("Run of " + java.time.LocalDateTime.now().withNano(0) + " on " + Machine.describe() + ".");
        System.out.println(row);
        System.exit(0);
    }
}
