package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * Charts through the real server: matplotlib written the way agents write it comes back as PNG image blocks after
 * the text (and, where saved, as scratch files), drawn right. The pixel checks know matplotlib's default geometry: a
 * 640 x 480 figure whose axes box runs from x 80 to 576 and y 57.6 to 427.2. Each picture is kept under
 * target/charts-it for a person to look at.
 */
class ChartsIT {
    private static final Path PICTURES = SandboxServer.PROJECT_ROOT.resolve("target/charts-it");
    private static final int BLUE = 0x1f77b4;
    private static final int ORANGE = 0xff7f0e;
    private static SandboxServer server;

    @BeforeAll
    static void start() throws IOException {
        server = SharedServer.get();
        Files.createDirectories(PICTURES);
    }

    /** The answer to a call of execute_code with this code, and its images, each decoded and kept on disk. */
    private record Drawn(CallToolResult answer, Map<String, Object> result, List<BufferedImage> images) {
    }

    @SuppressWarnings("unchecked")
    private static Drawn draw(String name, String code) {
        CallToolResult answer = server.call("execute_code", Map.of("language", "python", "code", code));
        List<BufferedImage> images = new ArrayList<>();
        List<Content> content = answer.content();
        for (int i = 0; i < content.size(); i++) {
            if (content.get(i) instanceof ImageContent image) {
                assertEquals("image/png", image.mimeType());
                assertTrue(i > 0, "images come after the text block");
                byte[] png = Base64.getDecoder().decode(image.data());
                try {
                    Files.write(PICTURES.resolve(name + "-" + images.size() + ".png"), png);
                    images.add(ImageIO.read(new ByteArrayInputStream(png)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return new Drawn(answer, (Map<String, Object>) answer.structuredContent(), images);
    }

    @SuppressWarnings("unchecked")
    private static List<String> fileNames(Map<String, Object> result) {
        return ((List<Map<String, Object>>) result.get("files")).stream().map(f -> (String) f.get("path")).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> listed(Map<String, Object> result) {
        Object images = result.get("images");
        return images == null ? List.of() : (List<Map<String, Object>>) images;
    }

    private static boolean near(int rgb, int wanted) {
        int dr = Math.abs((rgb >> 16 & 0xff) - (wanted >> 16 & 0xff));
        int dg = Math.abs((rgb >> 8 & 0xff) - (wanted >> 8 & 0xff));
        int db = Math.abs((rgb & 0xff) - (wanted & 0xff));
        return dr + dg + db < 40;
    }

    private static long count(BufferedImage image, int wanted) {
        long found = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if (near(image.getRGB(x, y) & 0xffffff, wanted)) {
                    found++;
                }
            }
        }
        return found;
    }

    /** Chart snippets as agents write them: each must come back as at least one image, and its saved files. */
    static Stream<Arguments> snippets() {
        return Stream.of(
                Arguments.of("line-savefig", """
                        import matplotlib
                        matplotlib.use('Agg')
                        import matplotlib.pyplot as plt
                        import math
                        x = [i * 0.1 for i in range(100)]
                        plt.figure(figsize=(10, 6))
                        plt.plot(x, [math.sin(v) for v in x], label='sin(x)', color='blue', linewidth=2)
                        plt.plot(x, [math.cos(v) for v in x], 'r--', label='cos(x)')
                        plt.title('Sine and Cosine')
                        plt.xlabel('x')
                        plt.ylabel('y')
                        plt.legend()
                        plt.grid(True)
                        plt.savefig('trig.png', dpi=100, bbox_inches='tight')
                        print('saved')
                        """, List.of("trig.png")),
                Arguments.of("bar-categories", """
                        import matplotlib.pyplot as plt
                        products = ['Widget', 'Gadget', 'Doohickey', 'Thingamajig']
                        sales = [1250, 980, 1430, 760]
                        fig, ax = plt.subplots(figsize=(8, 5))
                        bars = ax.bar(products, sales, color=['#2ecc71', '#3498db', '#e74c3c', '#f39c12'])
                        ax.set_title('Sales by Product')
                        ax.set_ylabel('Units sold')
                        for bar in bars:
                            ax.text(bar.get_x() + bar.get_width() / 2, bar.get_height() + 20, str(bar.get_height()),
                                    ha='center')
                        plt.tight_layout()
                        plt.savefig('sales.png')
                        """, List.of("sales.png")),
                Arguments.of("barh-sorted", """
                        import matplotlib.pyplot as plt
                        data = {'Python': 31.4, 'JavaScript': 18.2, 'Java': 12.1, 'C++': 8.7, 'Go': 5.2}
                        names = sorted(data, key=data.get)
                        plt.barh(names, [data[n] for n in names], color='skyblue', edgecolor='navy')
                        plt.xlabel('Share (%)')
                        plt.title('Language popularity')
                        plt.show()
                        """, List.of()),
                Arguments.of("hist-normal", """
                        import random
                        import matplotlib.pyplot as plt
                        random.seed(42)
                        values = [random.gauss(100, 15) for _ in range(1000)]
                        plt.hist(values, bins=30, edgecolor='black', alpha=0.7, color='steelblue')
                        plt.axvline(sum(values) / len(values), color='red', linestyle='dashed', linewidth=2,
                                    label='mean')
                        plt.legend()
                        plt.title('Distribution')
                        plt.savefig('hist.png')
                        """, List.of("hist.png")),
                Arguments.of("scatter-colormap", """
                        import random
                        import matplotlib.pyplot as plt
                        random.seed(1)
                        x = [random.random() for _ in range(200)]
                        y = [v * 2 + random.gauss(0, 0.3) for v in x]
                        colors = [a + b for a, b in zip(x, y)]
                        plt.scatter(x, y, c=colors, cmap='viridis', s=40, alpha=0.8, edgecolors='k')
                        plt.colorbar(label='x + y')
                        plt.title('Correlation')
                        plt.show()
                        """, List.of()),
                Arguments.of("pie-autopct", """
                        import matplotlib.pyplot as plt
                        labels = ['Rent', 'Food', 'Transport', 'Savings']
                        sizes = [40, 25, 15, 20]
                        explode = (0.05, 0, 0, 0)
                        fig1, ax1 = plt.subplots()
                        ax1.pie(sizes, explode=explode, labels=labels, autopct='%1.1f%%', startangle=90)
                        ax1.axis('equal')
                        plt.title('Budget')
                        plt.savefig('budget.png')
                        """, List.of("budget.png")),
                Arguments.of("dashboard-subplots", """
                        import matplotlib.pyplot as plt
                        fig, axes = plt.subplots(2, 2, figsize=(12, 8))
                        axes[0, 0].plot([1, 2, 3, 4], [10, 20, 25, 30], marker='o')
                        axes[0, 0].set_title('Growth')
                        axes[0, 1].bar(['A', 'B', 'C'], [5, 7, 3])
                        axes[0, 1].set_title('Counts')
                        axes[1, 0].scatter([1, 2, 3], [3, 1, 2])
                        axes[1, 1].hist([1, 1, 2, 3, 3, 3, 4], bins=4)
                        for ax in axes.flat:
                            ax.grid(True, alpha=0.3)
                        fig.suptitle('Quarterly dashboard', fontsize=16)
                        plt.tight_layout()
                        plt.show()
                        """, List.of()),
                Arguments.of("fill-between", """
                        import matplotlib.pyplot as plt
                        x = list(range(20))
                        mean = [v * 0.5 for v in x]
                        plt.plot(x, mean, 'k-', label='mean')
                        plt.fill_between(x, [m - 1 for m in mean], [m + 1 for m in mean], alpha=0.3,
                                         label='band')
                        plt.legend(loc='upper left')
                        plt.savefig('band.png')
                        """, List.of("band.png")),
                Arguments.of("errorbar", """
                        import matplotlib.pyplot as plt
                        x = [1, 2, 3, 4, 5]
                        y = [2.3, 3.1, 4.8, 5.2, 6.9]
                        err = [0.3, 0.4, 0.2, 0.5, 0.3]
                        plt.errorbar(x, y, yerr=err, fmt='o-', capsize=5, label='measured')
                        plt.legend()
                        plt.title('Measurements with error bars')
                        plt.show()
                        """, List.of()),
                Arguments.of("boxplot", """
                        import random
                        import matplotlib.pyplot as plt
                        random.seed(3)
                        groups = [[random.gauss(mu, 1) for _ in range(50)] for mu in (1, 2, 3)]
                        plt.boxplot(groups, labels=['low', 'mid', 'high'])
                        plt.ylabel('value')
                        plt.savefig('box.png')
                        """, List.of("box.png")),
                Arguments.of("dates", """
                        import datetime
                        import matplotlib.pyplot as plt
                        import matplotlib.dates as mdates
                        days = [datetime.date(2024, 1, 1) + datetime.timedelta(days=i) for i in range(60)]
                        values = [100 + i * 1.5 + (i % 7) * 3 for i in range(60)]
                        fig, ax = plt.subplots(figsize=(10, 5))
                        ax.plot(days, values)
                        ax.xaxis.set_major_formatter(mdates.DateFormatter('%b %d'))
                        fig.autofmt_xdate()
                        ax.set_title('Daily price')
                        plt.savefig('prices.png')
                        """, List.of("prices.png")),
                Arguments.of("heatmap", """
                        import matplotlib.pyplot as plt
                        matrix = [[(r * c) % 7 for c in range(10)] for r in range(8)]
                        fig, ax = plt.subplots()
                        im = ax.imshow(matrix, cmap='hot')
                        fig.colorbar(im, ax=ax)
                        ax.set_title('Heat map')
                        plt.show()
                        """, List.of()),
                Arguments.of("stacked-bars", """
                        import matplotlib.pyplot as plt
                        months = ['Jan', 'Feb', 'Mar']
                        a = [3, 4, 5]
                        b = [2, 2, 3]
                        plt.bar(months, a, label='online')
                        plt.bar(months, b, bottom=a, label='in store')
                        plt.legend()
                        plt.ylabel('orders')
                        plt.show()
                        """, List.of()),
                Arguments.of("twinx", """
                        import matplotlib.pyplot as plt
                        fig, ax1 = plt.subplots()
                        ax1.plot([1, 2, 3], [10, 20, 15], 'b-')
                        ax1.set_ylabel('revenue', color='b')
                        ax2 = ax1.twinx()
                        ax2.plot([1, 2, 3], [0.1, 0.3, 0.2], 'r-')
                        ax2.set_ylabel('margin', color='r')
                        fig.tight_layout()
                        plt.savefig('twin.png')
                        """, List.of("twin.png")),
                Arguments.of("annotate", """
                        import matplotlib.pyplot as plt
                        plt.plot([0, 1, 2, 3, 4], [0, 1, 4, 9, 16])
                        plt.annotate('peak', xy=(4, 16), xytext=(2, 12), arrowprops=dict(arrowstyle='->'))
                        plt.axhline(y=8, color='gray', linestyle=':')
                        plt.text(0.5, 14, 'y = x^2')
                        plt.savefig('annotated.png')
                        """, List.of("annotated.png")),
                Arguments.of("svg", """
                        import matplotlib.pyplot as plt
                        plt.plot([1, 2, 3], [3, 1, 2])
                        plt.savefig('chart.svg')
                        print(open('chart.svg').read()[:5])
                        """, List.of("chart.svg")),
                Arguments.of("style-log", """
                        import matplotlib.pyplot as plt
                        plt.style.use('ggplot')
                        plt.semilogy([1, 2, 3, 4], [10, 100, 1000, 10000], 'o-')
                        plt.title('Exponential growth')
                        plt.show()
                        """, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("snippets")
    void aChartWrittenAsAgentsWriteItComesBackAsAnImage(String name, String code, List<String> saved) {
        Drawn drawn = draw(name, code);
        assertEquals("success", drawn.result().get("status"), drawn.result()::toString);
        assertFalse(drawn.images().isEmpty(), "no image came back");
        for (BufferedImage image : drawn.images()) {
            assertNotNull(image, "an image block that is not a PNG");
            assertTrue(image.getWidth() >= 300 && image.getHeight() >= 200, image::toString);
        }
        assertEquals(drawn.images().size(), listed(drawn.result()).size(), "structuredContent lists each image");
        assertTrue(fileNames(drawn.result()).containsAll(saved), () -> fileNames(drawn.result()).toString());
    }

    @Test
    void aRedLinePutsRedPixelsWhereItsDataIs() {
        Drawn drawn = draw("red-line", """
                import matplotlib.pyplot as plt
                plt.plot([0, 10], [3, 3], color='red', linewidth=3)
                plt.xlim(0, 10)
                plt.ylim(0, 4)
                plt.savefig('red.png')
                """);
        BufferedImage image = drawn.images().get(0);
        // y = 3 of 0..4 is three quarters up the box: 427.2 - 0.75 * 369.6 = 150
        for (int x : new int[] {100, 320, 550}) {
            assertTrue(near(image.getRGB(x, 150) & 0xffffff, 0xff0000), "red at " + x + ",150");
            assertFalse(near(image.getRGB(x, 300) & 0xffffff, 0xff0000), "no red at " + x + ",300");
        }
        assertEquals(List.of("red.png"), fileNames(drawn.result()));
        Map<String, Object> listing = listed(drawn.result()).get(0);
        assertEquals("red.png", listing.get("name"));
        assertEquals("image/png", listing.get("mime_type"));
        assertEquals(640, ((Number) listing.get("width")).intValue());
    }

    @Test
    void twoSeriesWithALegendDrawTwoColours() {
        Drawn drawn = draw("two-series", """
                import matplotlib.pyplot as plt
                plt.plot([1, 2, 3], [1, 2, 3], label='first')
                plt.plot([1, 2, 3], [3, 2, 1], label='second')
                plt.legend()
                """);
        BufferedImage image = drawn.images().get(0);
        assertTrue(count(image, BLUE) > 200, "the first series is tab:blue");
        assertTrue(count(image, ORANGE) > 200, "the second series is tab:orange");
    }

    @Test
    void barsAreDrawnInTheOrderOfTheirHeights() {
        Drawn drawn = draw("bar-heights", """
                import matplotlib.pyplot as plt
                plt.bar(['a', 'b', 'c'], [3, 1, 2])
                plt.xlim(-0.5, 2.5)
                plt.ylim(0, 4)
                """);
        BufferedImage image = drawn.images().get(0);
        int[] tops = new int[3];
        for (int i = 0; i < 3; i++) {
            int x = (int) Math.round(80 + (i + 0.5) / 3 * 496);
            int y = 58;
            while (y < 427 && !near(image.getRGB(x, y) & 0xffffff, BLUE)) {
                y++;
            }
            tops[i] = y;
        }
        // Heights 3, 1, 2: bar a reaches highest (smallest row), then c, then b; each where its value says.
        assertTrue(tops[0] < tops[2] && tops[2] < tops[1], java.util.Arrays.toString(tops));
        assertTrue(Math.abs(tops[0] - (427.2 - 0.75 * 369.6)) < 3, java.util.Arrays.toString(tops));
    }

    @Test
    void whatItDoesNotDrawRaisesNotImplementedErrorNamingTheCallAndWhatToUse() {
        Map<String, Object> result = server.python("""
                import matplotlib.pyplot as plt
                fig, ax = plt.subplots()
                for call in (lambda: plt.xkcd(), lambda: ax.set_box_aspect(1), lambda: ax.contour([[1, 2], [3, 4]])):
                    try:
                        call()
                    except NotImplementedError as e:
                        print(e)
                """);
        assertEquals("success", result.get("status"), result::toString);
        String said = (String) result.get("stdout");
        assertTrue(said.contains("matplotlib.pyplot.xkcd() is not drawn by this sandbox's matplotlib; it draws plot,"),
                said);
        assertTrue(said.contains("Axes.set_box_aspect() is not drawn"), said);
        assertTrue(said.contains("Axes.contour() is not drawn by this sandbox's matplotlib; show a grid of values"
                + " with imshow"), said);
    }

    @Test
    void runPythonAnswersWithTheImagesToo() {
        CallToolResult answer = server.call("run_python", Map.of("code", """
                import matplotlib.pyplot as plt
                plt.plot([1, 2], [2, 1])
                plt.show()
                print('drawn')
                """));
        assertTrue(SandboxServer.text(answer).startsWith("Stdout:\ndrawn"), SandboxServer.text(answer));
        assertTrue(answer.content().stream().anyMatch(c -> c instanceof ImageContent), answer::toString);
    }

    @Test
    void aSessionKeepsItsFigureAndShowsItWhenAsked() {
        Map<String, Object> first = server.execute(Map.of("language", "python", "session_id", "charts-it", "code",
                "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2, 3])\nplt.close(fig)\n"
                        + "fig2, ax2 = plt.subplots()\nax2.plot([3, 2, 1])\n"));
        assertEquals("success", first.get("status"), first::toString);
        assertEquals(1, listed(first).size(), "the figure left open is drawn once");
        Map<String, Object> second = server.execute(Map.of("language", "python", "session_id", "charts-it", "code",
                "x = 1\n"));
        assertTrue(listed(second).isEmpty(), "an unchanged figure is not drawn again: " + second);
        Map<String, Object> third = server.execute(Map.of("language", "python", "session_id", "charts-it", "code",
                "ax2.set_title('changed')\nplt.show()\n"));
        assertEquals(1, listed(third).size(), third::toString);
    }

    @Test
    void attackHugeFiguresAndDpiAreRefusedAndTheWorkerServesOn() {
        Map<String, Object> huge = server.python("""
                import matplotlib.pyplot as plt
                fig = plt.figure(figsize=(400, 400))
                plt.plot([1, 2])
                fig.savefig('huge.png')
                """);
        assertEquals("execution_error", huge.get("status"), huge::toString);
        assertTrue(((String) huge.get("error_message")).contains("pixels a figure may have here"), huge::toString);
        Map<String, Object> dpi = server.python("""
                import matplotlib.pyplot as plt
                plt.plot([1, 2])
                plt.savefig('dpi.png', dpi=100000)
                """);
        assertEquals("execution_error", dpi.get("status"), dpi::toString);
        assertTrue(((String) dpi.get("error_message")).contains("dpi must be between"), dpi::toString);
        assertEquals("success", server.python("print(1)").get("status"));
    }

    @Test
    void attackAMillionPointsIsRefusedClearly() {
        Map<String, Object> result = server.python("""
                import matplotlib.pyplot as plt
                plt.plot(list(range(1_000_000)))
                plt.savefig('million.png')
                """);
        assertEquals("execution_error", result.get("status"), result::toString);
        assertTrue(((String) result.get("error_message")).contains("points, more than the"), result::toString);
        assertFalse(fileNames(result).contains("million.png"));
    }

    @Test
    void attackHundredsOfFiguresAreCappedAndTheAnswerSaysWhatWasLeftOut() {
        Map<String, Object> result = server.python("""
                import matplotlib.pyplot as plt
                for i in range(30):
                    plt.figure()
                    plt.plot([1, i])
                plt.show()
                """);
        assertEquals("success", result.get("status"), result::toString);
        assertEquals(8, listed(result).size(), "an answer carries at most 8 images");
        assertEquals(22, ((Number) result.get("images_omitted")).intValue(), result::toString);
        Map<String, Object> many = server.python("""
                import matplotlib.pyplot as plt
                figures = [plt.figure() for _ in range(150)]
                """);
        assertEquals("execution_error", many.get("status"), many::toString);
        assertTrue(((String) many.get("error_message")).contains("figures are open"), many::toString);
    }

    @Test
    void attackNanAndInfinityInTheDataAreDrawnAroundNotFatal() {
        Drawn drawn = draw("nan", """
                import matplotlib.pyplot as plt
                nan, inf = float('nan'), float('inf')
                plt.plot([1, 2, 3, 4, 5], [1, nan, 3, inf, 5])
                plt.scatter([nan, 1], [1, -inf])
                plt.bar(['a', 'b'], [nan, 2])
                plt.savefig('nan.png')
                """);
        assertEquals("success", drawn.result().get("status"), drawn.result()::toString);
        assertEquals(1, drawn.images().size());
    }

    @Test
    void attackSavefigOutsideTheScratchSpaceIsRefused() {
        Map<String, Object> result = server.python("""
                import matplotlib.pyplot as plt
                plt.plot([1, 2])
                plt.savefig('/etc/evil.png')
                """);
        assertEquals("execution_error", result.get("status"), result::toString);
        assertTrue(((String) result.get("error_message")).contains("PermissionError"), result::toString);
        assertFalse(Files.exists(Path.of("/etc/evil.png")));
    }

    @Test
    void attackDrawingPastTheTimeoutStopsAtTheTimeout() {
        Map<String, Object> result = server.execute(Map.of("language", "python", "timeout", 2, "code", """
                import matplotlib.pyplot as plt
                points = list(range(200_000))
                while True:
                    fig = plt.figure(figsize=(30, 30))
                    plt.plot(points, points)
                    fig.savefig('slow.png')
                    plt.close(fig)
                """));
        assertEquals("timeout", result.get("status"), result::toString);
        assertEquals("success", server.python("print(1)").get("status"));
    }

    @Test
    void theResultViewIsServedAsAnMcpAppAndLinkedFromBothCodeTools() {
        assertTrue(server.client.getServerCapabilities().extensions().containsKey("io.modelcontextprotocol/ui"),
                server.client.getServerCapabilities()::toString);
        Resource view = server.client.listResources().resources().stream()
                .filter(r -> r.uri().equals("ui://python-sandbox/result.html")).findFirst().orElseThrow();
        assertEquals("text/html;profile=mcp-app", view.mimeType());
        TextResourceContents page = (TextResourceContents) server.client.readResource(new ReadResourceRequest(view.uri()))
                .contents().get(0);
        assertEquals("text/html;profile=mcp-app", page.mimeType());
        assertTrue(page.text().startsWith("<!DOCTYPE html>"), page.text());
        for (String tool : List.of("execute_code", "run_python")) {
            Tool described = server.client.listTools().tools().stream().filter(t -> t.name().equals(tool))
                    .findFirst().orElseThrow();
            assertEquals(Map.of("resourceUri", view.uri()), described.meta().get("ui"), tool);
        }
    }
}
