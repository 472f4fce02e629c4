package dev.pysandbox.worker;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.Source;

import dev.pysandbox.bench.CpuByThread;
import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/**
 * Where a fresh context's CPU goes, whether the JIT's compile thresholds move it, and whether fresh contexts
 * can reuse code compiled for the same text (bench/context-cost).
 * Runs in one worker-like JVM: build a context, start Python and the prelude, run {@code print(1)}, close;
 * many times. After a warm-up it reads the CPU time of every thread, grouped by thread name.
 *
 * <p>The variants that change thresholds need an engine under the TRUSTED sandbox policy: CONSTRAINED, which
 * the worker uses, refuses every compilation option except {@code engine.Mode}, {@code engine.CompilerThreads}
 * and {@code engine.CompilationFailureAction}. So this is an experiment, not a configuration the server can run.
 */
public final class ContextCostProbe {
    private static final int WARM_UP = 1_000;
    private static final int MEASURED = 500;

    /** The benchmark's fib(27), timing itself: the code each fresh context receives, the same text every time. */
    private static final String FIB = """
            import time
            def fib(n):
                return n if n < 2 else fib(n - 1) + fib(n - 2)
            t = time.perf_counter()
            fib(27)
            elapsed = (time.perf_counter() - t) * 1000
            """;
    private static final int FIB_RUNS = 12;

    public static void main(String[] args) throws Exception {
        String variant = args[0];
        if (variant.equals("fib-again")) {
            fibAgain();
            return;
        }
        if (variant.equals("heap")) {
            heapAfterContexts();
            return;
        }
        if (variant.equals("corpus")) {
            corpus(java.nio.file.Path.of(args[1]), Integer.parseInt(args[2]));
            return;
        }
        Supplier<PreparedContext> contexts = switch (variant) {
            case "worker" -> {
                SandboxContexts worker = new SandboxContexts(WorkerSettings.fromSystemProperties(), new ToolBridge(event -> { }),
                        new ChartBridge(ChartLimits.DEFAULT));
                yield () -> worker.prepare(false);
            }
            case "trusted" -> trusted(Map.of());
            case "trusted-high-thresholds" -> trusted(Map.of(
                    "engine.FirstTierCompilationThreshold", "50000",
                    "engine.LastTierCompilationThreshold", "200000",
                    "engine.DynamicCompilationThresholds", "false"));
            default -> throw new IllegalArgumentException("unknown variant " + variant);
        };
        Map<String, Long> before = Map.of();
        long wallStart = 0;
        for (int i = 0; i < WARM_UP + MEASURED; i++) {
            if (i == WARM_UP) {
                before = CpuByThread.ofThisJvm();
                wallStart = System.nanoTime();
            }
            PreparedContext prepared = contexts.get();
            prepared.runner().run(new GuestRun("print(1)", "<string>", false, "{}", 1024, AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
            prepared.context().close(true);
        }
        double wallPerCall = (System.nanoTime() - wallStart) / 1e6 / MEASURED;
        Map<String, Long> after = CpuByThread.ofThisJvm();
        System.out.printf("| %s | %.1f | %.1f | %s |%n", variant, wallPerCall,
                CpuByThread.totalPerCall(before, after, MEASURED), CpuByThread.perCall(before, after, MEASURED));
        System.exit(0);
    }

    /**
     * The same fib(27) text in {@value #FIB_RUNS} fresh contexts on one engine, run two ways: through the
     * prelude's runner compiling it (Python's compile() and exec(), as a session's calls still run), and
     * evaluated as a polyglot {@link Source}, whose parsed and compiled code the engine shares between contexts
     * for as long as an equal Source object is alive ({@link SharedCode}). Prints the fib time of each run in ms.
     */
    private static void fibAgain() {
        SandboxContexts contexts = new SandboxContexts(WorkerSettings.fromSystemProperties(), new ToolBridge(event -> { }),
                new ChartBridge(ChartLimits.DEFAULT));
        Source fib = Source.newBuilder("python", FIB, "<string>").buildLiteral();
        StringBuilder runner = new StringBuilder();
        StringBuilder source = new StringBuilder();
        for (int i = 0; i < FIB_RUNS; i++) {
            PreparedContext viaRunner = contexts.prepare(false);
            viaRunner.runner().run(new GuestRun(FIB, "<string>", false, "{}", 1024, AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
            runner.append(String.format(" %.0f", viaRunner.context().getBindings("python").getMember("elapsed").asDouble()));
            viaRunner.context().close(true);
            PreparedContext viaSource = contexts.prepare(false);
            viaSource.context().eval(fib);
            source.append(String.format(" %.0f", viaSource.context().getBindings("python").getMember("elapsed").asDouble()));
            viaSource.context().close(true);
        }
        System.out.println("| prelude runner (compile and exec) |" + runner + " |");
        System.out.println("| cached polyglot Source |" + source + " |");
        System.exit(0);
    }

    /**
     * Where a fresh call's time goes on the worker: the snippets of a corpus, each as new text, in fresh contexts
     * of one engine, pass after pass. Per pass, the time to build plain contexts, to build preloaded ones, to run
     * the snippets in preloaded contexts, and to close them (ms, summed over the corpus), and per snippet the run
     * time of the last pass.
     */
    private static void corpus(java.nio.file.Path folder, int passes) throws java.io.IOException {
        SandboxContexts contexts = new SandboxContexts(WorkerSettings.fromSystemProperties(), new ToolBridge(event -> { }),
                new ChartBridge(ChartLimits.DEFAULT));
        List<java.nio.file.Path> snippets;
        try (var files = java.nio.file.Files.list(folder)) {
            snippets = files.filter(f -> f.toString().endsWith(".py")).sorted().toList();
        }
        StringBuilder last = new StringBuilder();
        for (int pass = 1; pass <= passes; pass++) {
            long plain = 0, preloaded = 0, run = 0, close = 0;
            last.setLength(0);
            for (java.nio.file.Path snippet : snippets) {
                String code = "# pass " + pass + " " + System.nanoTime() + "\n" + java.nio.file.Files.readString(snippet);
                long t0 = System.nanoTime();
                PreparedContext bare = contexts.prepare(false);
                long t1 = System.nanoTime();
                bare.context().close(true);
                long t2 = System.nanoTime();
                PreparedContext prepared = contexts.prepare(true);
                long t3 = System.nanoTime();
                // fresh: the runner parses the text as a shared module, unless probe.compile asks it to compile it.
                prepared.runner().run(new GuestRun(code, "<string>", System.getProperty("probe.compile") == null, "{}",
                        1 << 20, AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
                long t4 = System.nanoTime();
                prepared.context().close(true);
                long t5 = System.nanoTime();
                plain += t1 - t0;
                preloaded += t3 - t2;
                run += t4 - t3;
                close += t5 - t4;
                last.append(String.format(" %s=%.0f", snippet.getFileName().toString().substring(0, 2), (t4 - t3) / 1e6));
            }
            System.out.printf("pass %d: plain %.0f, preloaded %.0f, run %.0f, close %.0f ms%n",
                    pass, plain / 1e6, preloaded / 1e6, run / 1e6, close / 1e6);
        }
        System.out.println("last pass run ms:" + last);
        System.exit(0);
    }

    /** What each context of the heap variant runs: the imports and work of a typical agent snippet. */
    private static final String AGENT_IMPORTS = """
            import csv, json, statistics, random, difflib, dataclasses, string, textwrap, fractions, decimal, re, io
            rows = list(csv.DictReader(io.StringIO('a,b\\n1,2\\n3,4\\n')))
            result = [json.dumps(rows), statistics.mean(random.Random(1).random() for _ in range(1000)),
                      difflib.SequenceMatcher(None, 'abcd', 'abed').ratio(), re.findall(r'\\w+', 'x y z')]
            """;

    /**
     * Whether closed contexts leave anything behind: the live heap after a full collection, after 10 and after
     * 100 fresh contexts that each import and use a dozen standard modules (issue 24's target: flat within 10%).
     */
    private static void heapAfterContexts() {
        SandboxContexts contexts = new SandboxContexts(WorkerSettings.fromSystemProperties(), new ToolBridge(event -> { }),
                new ChartBridge(ChartLimits.DEFAULT));
        StringBuilder row = new StringBuilder("| live heap after a full GC, MB, after contexts 10, 25, 50, 75, 100 |");
        for (int i = 1; i <= 100; i++) {
            PreparedContext prepared = contexts.prepare(false);
            prepared.runner().run(new GuestRun(AGENT_IMPORTS, "<string>", false, "{}", 1024, AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
            prepared.context().close(true);
            if (i == 10 || i % 25 == 0) {
                row.append(String.format(" %.1f", liveHeapMegabytes()));
            }
        }
        System.out.println(row + " |");
        System.exit(0);
    }

    private static double liveHeapMegabytes() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
    }

    /**
     * A context like the worker's, with the same streams, prelude (installed through {@link Prelude}, as the
     * worker installs it) and import policy, but under the TRUSTED policy, which the engine options need. Only
     * start-up cost is measured here, not what the code may do. Nothing is preloaded, as in the {@code worker}
     * variant's {@code prepare(false)}, so that the variants compare.
     */
    private static Supplier<PreparedContext> trusted(Map<String, String> engineOptions) {
        Engine engine = Engine.newBuilder("python")
                .out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream())
                .option("engine.WarnInterpreterOnly", "false")
                .allowExperimentalOptions(true)
                .options(new HashMap<>(engineOptions))
                .build();
        Prelude prelude = new Prelude();
        WorkerSettings settings = WorkerSettings.fromSystemProperties();
        ImportRule importRule = settings.imports().unrestrictedImports() ? null : new ImportRule(settings.imports(), Set.of());
        ToolBridge tools = new ToolBridge(event -> { });
        return () -> {
            CallStreams streams = new CallStreams();
            Context context = Context.newBuilder("python").engine(engine)
                    .in(streams.stdin).out(streams.stdout).err(streams.stderr)
                    .allowNativeAccess(false).allowCreateThread(false).allowCreateProcess(false)
                    .build();
            return new PreparedContext(context, streams, prelude.install(context, new Prelude.Settings(importRule,
                    settings.strictBuiltins(), List.of(), "", settings.autoInstall(), "", Prelude.Codecs.SHARED, tools,
                            new ChartBridge(ChartLimits.DEFAULT), ""), new SharedCode()),
                    null, null, null);
        };
    }
}
