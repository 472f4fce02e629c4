package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

import dev.pysandbox.wire.WireCodec;

/**
 * The result view in a real browser: Debian's headless Chromium (chromium-headless-shell), driven by playwright-core with that executable, opens a host
 * page built on ext-apps' own host-side bridge (AppBridge, esbuild-bundled), which hands the view, as our server
 * serves it, the arguments and the answer of a real execute_code call (a chart, a CSV, output). The test reads what
 * the page shows and saves screenshots under target/result-view.
 *
 * <p>Set-up: the npm packages pinned by {@code src/test/resources/result-view/package-lock.json} install under
 * target/result-view; bin/test installs Debian's chromium-headless-shell (playwright's own download cannot reach the
 * network here).
 */
class ResultViewIT {
    private static final Path HARNESS = SandboxServer.PROJECT_ROOT.resolve("target/result-view");
    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium-headless-shell"));
    private static final List<String> FILES = List.of("package.json", "package-lock.json", "host.js", "build.mjs",
            "view-test.mjs");
    private static SandboxServer server;

    @BeforeAll
    static void prepare() throws IOException, InterruptedException {
        NodeToolchain.requirePresent("result view");
        awaitChromiumInstall();
        assertTrue(Files.isExecutable(CHROMIUM), CHROMIUM + " is not installed (bin/test installs Debian's chromium-headless-shell)");
        Files.createDirectories(HARNESS);
        boolean changed = false;
        for (String file : FILES) {
            try (InputStream in = ResultViewIT.class.getResourceAsStream("/result-view/" + file)) {
                byte[] content = in.readAllBytes();
                Path target = HARNESS.resolve(file);
                if (!Files.exists(target) || !java.util.Arrays.equals(Files.readAllBytes(target), content)) {
                    Files.write(target, content);
                    changed = true;
                }
            }
        }
        if (changed || !Files.isDirectory(HARNESS.resolve("node_modules/@modelcontextprotocol/ext-apps"))) {
            // The checked-in lockfile pins every package; npm ci installs exactly it (ext-apps' peers for React
            // and its server are not needed by its host-side bridge, hence --legacy-peer-deps).
            run(List.of("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", "--legacy-peer-deps"));
        }
        run(List.of("node", "build.mjs"));
        server = SharedServer.get();
    }

    /** bin/test installs chromium while Maven builds; CHROMIUM_INSTALL names the install's log and exit status. */
    private static void awaitChromiumInstall() throws IOException, InterruptedException {
        String install = System.getenv("CHROMIUM_INSTALL");
        if (install == null) {
            return;
        }
        Path status = Path.of(install + ".status");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (!Files.exists(status) && System.nanoTime() < deadline) {
            Thread.sleep(1000);
        }
        assertTrue(Files.exists(status) && Files.readString(status).strip().equals("0"),
                "installing chromium-headless-shell failed or took over 10 minutes:\n" + (Files.exists(Path.of(install + ".log"))
                        ? Files.readString(Path.of(install + ".log")) : "(no log)"));
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(HARNESS.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(10, TimeUnit.MINUTES) && process.exitValue() == 0, command + " failed:\n" + out);
        return out;
    }

    @Test
    @SuppressWarnings("unchecked")
    void aHostOnExtAppsBridgeShowsTheCallsCodeOutputChartAndFiles() throws Exception {
        String code = """
                import csv
                import matplotlib.pyplot as plt

                rows = [('North', 1250, 0.12), ('South', 980, 0.08), ('East', 1430, 0.15), ('West', 760, 0.05)]
                with open('regions.csv', 'w', newline='') as f:
                    writer = csv.writer(f)
                    writer.writerow(['region', 'sales', 'growth'])
                    writer.writerows(rows)
                fig, ax = plt.subplots(figsize=(7, 4))
                ax.bar([r[0] for r in rows], [r[1] for r in rows], color='steelblue')
                ax.set_title('Sales by region')
                plt.savefig('sales.png')
                print('total', sum(r[1] for r in rows))
                """;
        Map<String, Object> arguments = Map.of("language", "python", "code", code);
        CallToolResult answer = server.call("execute_code", arguments);
        TextResourceContents view = (TextResourceContents) server.client
                .readResource(new ReadResourceRequest("ui://python-sandbox/result.html")).contents().get(0);
        Files.writeString(HARNESS.resolve("view.html"), view.text());
        Files.writeString(HARNESS.resolve("arguments.json"), WireCodec.encode(arguments));
        Files.writeString(HARNESS.resolve("result.json"), McpJsonDefaults.getMapper().writeValueAsString(answer));

        String output = run(List.of("node", "view-test.mjs", "view.html", "arguments.json", "result.json",
                HARNESS.toString()));
        Map<String, Object> report = WireCodec.decode(output.strip(), Map.class);
        Map<String, Object> shown = (Map<String, Object>) report.get("shown");
        assertEquals("dark", shown.get("theme"), "the host's theme is followed");
        assertEquals("success", shown.get("status"));
        assertEquals("execute_code", shown.get("tool"));
        assertTrue(((String) shown.get("time")).endsWith(" s"), shown::toString);
        assertEquals(code, shown.get("code"));
        List<String> highlighted = (List<String>) shown.get("highlighted");
        assertTrue(highlighted.containsAll(List.of("k:import", "s:'North'", "n:1250", "f:savefig", "k:for")),
                highlighted::toString);
        assertEquals("total 4420\n", shown.get("stdout"));
        assertEquals(false, shown.get("stderrShown"));
        List<Map<String, Object>> images = (List<Map<String, Object>>) shown.get("images");
        assertEquals(1, images.size(), shown::toString);
        assertEquals("sales.png", images.get(0).get("alt"));
        assertEquals(700, ((Number) images.get(0).get("width")).intValue(), "the chart decoded in the browser");
        List<String> files = (List<String>) shown.get("files");
        assertEquals(2, files.size(), shown::toString);
        assertEquals("regions.csv  (85 bytes)", files.get(0));
        assertTrue(files.get(1).startsWith("sales.png  ("), files::toString);
        assertEquals(0, ((Number) shown.get("fileImages")).intValue(), "a saved chart is not shown twice");
        assertEquals(List.of("region", "sales", "growth"), shown.get("tableHeader"));
        assertEquals(List.of("North", "South", "East", "West"), shown.get("tableFirstColumn"));
        assertEquals(List.of("West", "South", "North", "East"), report.get("sortedUp"), "sorted by sales, as numbers");
        assertEquals(List.of("East", "North", "South", "West"), report.get("sortedDown"));
        assertEquals(List.of(), report.get("requests"), "the view reached no origin");
        Map<String, Object> alone = (Map<String, Object>) report.get("alone");
        assertEquals(true, alone.get("emptyShown"), "with no host, the page says why it is empty");
        assertTrue(Files.size(HARNESS.resolve("result-view.png")) > 10_000, "the screenshot was saved");
        assertFalse((Boolean) shown.get("emptyShown"));
    }
}
