package dev.pysandbox.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

/**
 * The scale test (bin/scale-test): bin/cluster-local's HAProxy in front of local replicas with token auth,
 * driven by MCP Java SDK clients over Streamable HTTP. It measures the HAProxy hop (a trivial call straight to a
 * replica against the same call through HAProxy), calls per second with 1 and 2 replicas, and runs the full
 * {@link ScaleWorkload}: 1,000 calls at 16 in flight, 5 % hostile, one session with code over 20 KB, one replica
 * killed mid-run. Prints a Markdown section for BENCHMARKS.md (rewritten in place unless the file is "-") and
 * exits 1 if the workload broke a pass criterion.
 *
 * <p>Arguments: project root, BENCHMARKS.md or -.
 */
public final class ScaleTest {
    static final List<String> REPLICA_FLAGS = List.of("--workers=1", "--http.max-in-flight=64");
    /** Sizes, smaller for a quick look: -Dscale.calls (the full run), -Dscale.hop-calls, -Dscale.throughput-calls. */
    private static final int CALLS = Integer.getInteger("scale.calls", 1000);
    private static final int HOP_CALLS = Integer.getInteger("scale.hop-calls", 300);
    private static final int THROUGHPUT_CALLS = Integer.getInteger("scale.throughput-calls", 480);

    private final List<String> out = new ArrayList<>();

    private ScaleTest() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath();
        if (!args[1].equals("-")) {
            BenchmarksFile.checkOrExit(Path.of(args[1]), "bin/scale-test");
        }
        ScaleTest test = new ScaleTest();
        boolean passed = test.run(root);
        String section = String.join("\n", test.out) + "\n";
        System.out.print(section);
        if (!args[1].equals("-")) {
            BenchmarksFile.writeOrExit(Path.of(args[1]), "bin/scale-test", section);
        }
        System.exit(passed ? 0 : 1);
    }

    private void line(String text) {
        out.add(text);
        System.err.println("scale-test: " + text);
    }

    private boolean run(Path root) throws Exception {
        String machine = SpeedBenchmark.Machine.describe();
        String missing = LocalCluster.haproxyMissing(root).orElse(null);
        if (missing != null) {
            throw new IllegalStateException("no HAProxy: " + missing);
        }
        Path work = root.resolve("target/scale-test");
        double[] hop;
        double twoReplicas;
        double oneReplica;
        ScaleWorkload.Report report;
        String version;
        Map<String, Long> bySession;
        Map<String, Long> any;
        // A fresh cluster for each part: sessions live on in their worker (10 minutes idle), and a worker holding an
        // earlier part's sessions as well would measure them too. The hop is measured on one replica, so that the
        // direct and the proxied calls meet the same server in the same state.
        try (LocalCluster cluster = LocalCluster.start(root, 1, work.resolve("one"), null, REPLICA_FLAGS)) {
            version = cluster.haproxyVersion();
            hop = hop(cluster);
            oneReplica = throughput(cluster, "tp1");
        }
        try (LocalCluster cluster = LocalCluster.start(root, 2, work.resolve("two"), null, REPLICA_FLAGS)) {
            twoReplicas = throughput(cluster, "tp2");
        }
        if (CALLS > 0) {
            try (LocalCluster cluster = LocalCluster.start(root, 2, work.resolve("full"), null, REPLICA_FLAGS)) {
                report = ScaleWorkload.run(cluster, new ScaleWorkload.Options("full", 8, 2, CALLS, 20, 10, CALLS * 3 / 5, 2, 120));
                bySession = cluster.requestsPerReplica("by_session");
                any = cluster.requestsPerReplica("any");
                report.writeCsv(work.resolve("full/calls.csv"));
            }
        } else {
            report = null;
            bySession = any = Map.of();
        }

        line("## Scale-out: HAProxy in front of local replicas (bin/scale-test)");
        line("");
        line("Command: `bin/scale-test`: `bin/cluster-local` starts replicas of the real server (`--transport=http`, token auth, "
                + String.join(" ", REPLICA_FLAGS.stream().map(f -> "`" + f + "`").toList())
                + ") behind HAProxy " + version + " with `deploy/haproxy/haproxy.cfg`, all on loopback; the clients are "
                + "the MCP Java SDK's `HttpClientStreamableHttpTransport`. The same checks, on 200 calls, run in the test "
                + "suite as `ScaleOutIT`.");
        line("");
        line("Run of " + LocalDate.now() + " on " + machine + ". Everything (2 server JVMs, 2 worker JVMs, HAProxy, "
                + "the clients) shares the machine's cores: the absolute numbers move with whatever else runs there, "
                + "so compare within the run.");
        line("");
        line("| measurement | result |");
        line("| --- | --- |");
        line(String.format("| trivial call (`result = 1` in a session), straight to the replica, p50 / p99 | %.1f ms / %.1f ms |",
                hop[0], hop[1]));
        line(String.format("| the same call through HAProxy, p50 / p99 | %.1f ms / %.1f ms |", hop[2], hop[3]));
        line(String.format("| HAProxy's hop, p50 difference | %+.1f ms |", hop[2] - hop[0]));
        line(String.format("| session calls per second, 16 sessions, 16 in flight, 1 replica | %.0f |", oneReplica));
        line(String.format("| the same with 2 replicas | %.0f (x%.2f) |", twoReplicas, twoReplicas / oneReplica));
        line("");
        line("Each latency row: " + HOP_CALLS + " calls one at a time (after 10 to warm up), direct and through HAProxy "
                + "alternately, with one replica behind HAProxy; each throughput row: " + THROUGHPUT_CALLS + " counter calls "
                + "(`n = globals().get('n', 0) + 1; result = n`) from 8 clients with 2 sessions each, their first calls "
                + "(which make the sessions' contexts) included, every answer checked. The full run below has a cluster "
                + "of its own; its calls are listed in target/scale-test/full/calls.csv.");
        line("");
        if (report == null) {
            return true;
        }
        summarize(report, bySession, any);
        return report.violations().isEmpty();
    }

    /**
     * p50 and p99 (ms) of a trivial call, {@code result = 1} in a session (so no call waits for a fresh context),
     * straight to replica r1, then through HAProxy (its by_session backend, which reads session_id from the body),
     * alternating.
     */
    private static double[] hop(LocalCluster cluster) {
        Duration timeout = Duration.ofSeconds(120);
        McpSyncClient direct = cluster.client(cluster.replicaUrl(1), timeout);
        McpSyncClient proxied = cluster.client(cluster.url(), timeout);
        CallToolRequest straightCall = new CallToolRequest("execute_code",
                Map.of("language", "python", "code", "result = 1", "session_id", "hop-direct"));
        CallToolRequest proxiedCall = new CallToolRequest("execute_code",
                Map.of("language", "python", "code", "result = 1", "session_id", "hop-proxied"));
        for (int i = 0; i < 10; i++) {
            direct.callTool(straightCall);
            proxied.callTool(proxiedCall);
        }
        List<Double> straight = new ArrayList<>();
        List<Double> through = new ArrayList<>();
        for (int i = 0; i < HOP_CALLS; i++) {
            long start = System.nanoTime();
            direct.callTool(straightCall);
            straight.add((System.nanoTime() - start) / 1e6);
            start = System.nanoTime();
            proxied.callTool(proxiedCall);
            through.add((System.nanoTime() - start) / 1e6);
        }
        direct.close();
        proxied.close();
        return new double[] {ScaleWorkload.percentile(straight, 50), ScaleWorkload.percentile(straight, 99),
                ScaleWorkload.percentile(through, 50), ScaleWorkload.percentile(through, 99)};
    }

    /**
     * Session calls per second through HAProxy at 16 in flight (the 16 sessions' first calls, which make their
     * contexts, included); fails on any broken answer.
     */
    private static double throughput(LocalCluster cluster, String tag) throws Exception {
        ScaleWorkload.Report report = ScaleWorkload.run(cluster,
                new ScaleWorkload.Options(tag, 8, 2, THROUGHPUT_CALLS, 0, 0, -1, 0, 120));
        if (!report.violations().isEmpty()) {
            throw new IllegalStateException("the throughput run broke: " + report.violations());
        }
        return THROUGHPUT_CALLS / report.seconds();
    }

    private void summarize(ScaleWorkload.Report report, Map<String, Long> bySession, Map<String, Long> any) {
        List<ScaleWorkload.Call> calls = report.calls();
        long hostile = calls.stream().filter(c -> c.kind().startsWith("hostile-")).count();
        long fresh = calls.stream().filter(c -> "fresh".equals(c.kind())).count();
        long counters = calls.size() - hostile - fresh;
        line("**The full run**: " + calls.size() + " calls from 8 clients with 2 sessions each, 16 in flight, in "
                + String.format("%.0f s", report.seconds()) + "; " + hostile + " hostile calls without a session ("
                + kinds(report) + "); " + fresh + " calls without a session computing for about a second; session " + report.longSession() + " sends " + ScaleWorkload.LONG_COUNTER.length()
                + " bytes of code per call; replica r" + report.killedReplica() + " killed with SIGKILL after " + CALLS * 3 / 5
                + " answers.");
        line("");
        line("| check | result |");
        line("| --- | --- |");
        line("| sessions per replica (HAProxy's routing of each session_id) | " + report.sessionsPerReplica().entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue().size()).toList() + " |");
        line("| requests HAProxy sent to each replica, by_session / any backends | " + bySession + " / " + any + " |");
        line("| counter answers | " + calls.stream().filter(c -> c.session() != null && "success".equals(c.status())).count()
                + " of " + counters + " success |");
        line("| setup_error answers to counter calls (session reported lost) | " + calls.stream()
                .filter(c -> c.session() != null && "setup_error".equals(c.status())).count() + " in "
                + report.setupErrors().size() + " sessions; told their session ended because of another's call: "
                + calls.stream().filter(c -> c.session() != null && c.sessionEnded() != null).count() + " |");
        line("| counter calls that first rebuilt their session (its worker lost to a hostile call) | " + calls.stream()
                .filter(c -> c.sessionRebuilt() != null).count() + " |");
        line("| transport errors at the kill: session calls / calls without a session (retried on the survivor) | "
                + calls.stream().filter(c -> c.transportError() != null && c.session() != null).count() + " / "
                + calls.stream().filter(c -> c.transportError() != null && c.session() == null).count() + " |");
        line("| sessions that reported session_new: true after the kill | " + report.restartsAfterKill().size() + " (those of r"
                + report.killedReplica() + ": " + report.sessionsPerReplica().getOrDefault("r" + report.killedReplica(), List.of()).size()
                + ") |");
        List<Double> counterMillis = calls.stream().filter(c -> c.session() != null && c.transportError() == null)
                .map(ScaleWorkload.Call::millis).toList();
        line(String.format("| counter call latency under this load, p50 / p99 / max | %.0f ms / %.0f ms / %.0f ms |",
                ScaleWorkload.percentile(counterMillis, 50), ScaleWorkload.percentile(counterMillis, 99),
                ScaleWorkload.percentile(counterMillis, 100)));
        line("| pass criteria broken | " + (report.violations().isEmpty() ? "none" : report.violations().size() + ": "
                + String.join("; ", report.violations().subList(0, Math.min(5, report.violations().size())))) + " |");
        line("");
    }

    private static String kinds(ScaleWorkload.Report report) {
        List<String> parts = new ArrayList<>();
        for (ScaleWorkload.Hostile kind : ScaleWorkload.Hostile.values()) {
            String name = "hostile-" + kind.name().toLowerCase();
            long n = report.calls().stream().filter(c -> name.equals(c.kind())).count();
            parts.add(n + " " + kind.name().toLowerCase());
        }
        return String.join(", ", parts);
    }
}
