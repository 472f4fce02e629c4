package dev.pysandbox.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * What a chart costs a call: the same agent-like code with and without its chart, as new text each call, on a warm
 * server; the worker's own {@code execution_time} of each, and how many bytes the figure adds to the answer. The
 * first chart of a worker (its matplotlib import and Java2D's first use) is timed apart. Run by bench/charts, which
 * writes its section of BENCHMARKS.md.
 */
public final class ChartsBenchmark {
    private static final int RUNS = 20;
    private static final int WARM_UP = 10;
    private static final String DATA = """
            import random, statistics
            random.seed(%d)
            regions = ['North', 'South', 'East', 'West', 'Central']
            sales = {r: [random.randint(50, 200) for _ in range(12)] for r in regions}
            totals = {r: sum(v) for r, v in sales.items()}
            print(max(totals, key=totals.get), statistics.mean(totals.values()))
            """;
    private static final String CHART = """
            import matplotlib.pyplot as plt
            fig, ax = plt.subplots(figsize=(8, 5))
            ax.bar(list(totals), list(totals.values()), color='steelblue', edgecolor='black')
            for month in range(3):
                ax.plot(regions, [sales[r][month] * 5 for r in regions], marker='o', label='month %%d' %% (month + 1))
            ax.set_title('Sales by region (run %d)')
            ax.set_ylabel('units')
            ax.legend()
            ax.grid(axis='y', alpha=0.3)
            plt.tight_layout()
            plt.savefig('sales.png')
            """;

    private ChartsBenchmark() {
    }

    public static void main(String[] args) {
        Path launcher = Path.of(args[0]);
        Path report = args.length > 1 && !args[1].equals("-") ? Path.of(args[1]) : null;
        if (report != null) {
            BenchmarksFile.checkOrExit(report, "bench/charts");
        }
        ServerParameters parameters = ServerParameters.builder(launcher.toString()).args("--workers=1").build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(parameters, McpJsonDefaults.getMapper()))
                .requestTimeout(Duration.ofSeconds(300)).build();
        client.initialize();
        int seed = 0;
        Call first = call(client, DATA.formatted(seed) + CHART.formatted(seed++));
        for (int i = 0; i < WARM_UP; i++) {
            call(client, DATA.formatted(seed) + CHART.formatted(seed++));
            call(client, DATA.formatted(seed++));
        }
        List<Double> plain = new ArrayList<>();
        List<Double> charted = new ArrayList<>();
        List<Long> plainBytes = new ArrayList<>();
        List<Long> chartBytes = new ArrayList<>();
        List<Long> imageBytes = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            Call without = call(client, DATA.formatted(seed++));
            Call with = call(client, DATA.formatted(seed) + CHART.formatted(seed++));
            plain.add(without.seconds());
            charted.add(with.seconds());
            plainBytes.add(without.answerBytes());
            chartBytes.add(with.answerBytes());
            imageBytes.add(with.imageBytes());
        }
        client.closeGracefully();
        String section = section(first, plain, charted, plainBytes, chartBytes, imageBytes);
        System.out.println(section);
        if (report != null) {
            BenchmarksFile.writeOrExit(report, "bench/charts", section);
        }
        System.exit(0);
    }

    /** One call: the worker's execution_time, the answer's size as JSON, and the PNG bytes of its images. */
    private record Call(double seconds, long answerBytes, long imageBytes) {
    }

    @SuppressWarnings("unchecked")
    private static Call call(McpSyncClient client, String code) {
        CallToolResult answer = client.callTool(new CallToolRequest("execute_code", Map.of("language", "python",
                "code", code)));
        Map<String, Object> result = (Map<String, Object>) answer.structuredContent();
        if (!"success".equals(result.get("status"))) {
            throw new IllegalStateException("the call failed: " + result);
        }
        long answerBytes;
        try {
            answerBytes = McpJsonDefaults.getMapper().writeValueAsString(answer).getBytes(StandardCharsets.UTF_8).length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long images = 0;
        Object listed = result.get("images");
        if (listed != null) {
            for (Map<String, Object> image : (List<Map<String, Object>>) listed) {
                images += ((Number) image.get("size")).longValue();
            }
        }
        return new Call(((Number) result.get("execution_time")).doubleValue(), answerBytes, images);
    }

    private static String section(Call first, List<Double> plain, List<Double> charted, List<Long> plainBytes,
            List<Long> chartBytes, List<Long> imageBytes) {
        double medianPlain = median(plain);
        double medianChart = median(charted);
        StringBuilder out = new StringBuilder();
        out.append("Charts on ").append(LocalDate.now()).append(", bench/charts: ").append(RUNS)
                .append(" calls each on one warm worker, new text each call, alternating; times are the worker's own")
                .append(" `execution_time`.\n\n")
                .append("| | median | slowest |\n|---|---|---|\n")
                .append(row("agent code, no chart", medianPlain, Collections.max(plain)))
                .append(row("the same with a chart saved (bar + 3 lines, legend, grid, tight_layout, savefig)",
                        medianChart, Collections.max(charted)))
                .append(String.format(Locale.ROOT, "| the chart's own cost (difference of medians) | %.0f ms | |%n",
                        (medianChart - medianPlain) * 1000))
                .append(String.format(Locale.ROOT, "| the first chart of a new worker (whole call) | %.0f ms | |%n%n",
                        first.seconds() * 1000))
                .append(String.format(Locale.ROOT, "The answer: %,d bytes without the chart, %,d with it (median); "
                        + "the PNG is %,d bytes, in base64 four times: the image block, and the saved file in"
                        + " `structuredContent`, in the text block (an answer under 128 KB repeats it whole) and as"
                        + " its resource.%n", medianLong(plainBytes), medianLong(chartBytes), medianLong(imageBytes)));
        return out.toString();
    }

    private static String row(String what, double median, double worst) {
        return String.format(Locale.ROOT, "| %s | %.0f ms | %.0f ms |%n", what, median * 1000, worst * 1000);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static long medianLong(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
