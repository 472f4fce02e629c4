package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.wire.WireCodec;

/**
 * The release files ({@code bin/python-sandbox-mcp dist}), used as their users use them: the archive unpacked into
 * an empty folder and started with {@code JAVA_HOME} unset and no {@code java} on {@code PATH}; the MCP Bundle
 * unpacked and started with the command and arguments a desktop host makes of its manifest (the mcpb package's own
 * {@code getMcpConfigForManifest}, with {@code user_config} substituted); and the one version that the jar, the
 * server's {@code initialize}, the bundle's manifest and {@code server.json} all report; and server.json checked
 * against the MCP registry's rules for it (see {@link RegistrySchema} for which schemas those are).
 */
class ReleaseIT {
    private static final Path ROOT = SandboxServer.PROJECT_ROOT;
    private static final Path DIST = ROOT.resolve("target/dist");
    private static final String VERSION = System.getProperty("project.version");
    private static final String NAME = "python-sandbox-mcp-" + VERSION;
    /** The GitHub repository the release is published from, as a release maker names it to dist. */
    private static final String REPOSITORY = "https://github.com/example-owner/python-sandbox-mcp";

    @TempDir
    Path temp;

    @BeforeAll
    static void makeTheRelease() throws Exception {
        Process dist = new ProcessBuilder(SandboxServer.LAUNCHER.toString(), "dist", "--repository", REPOSITORY)
                .redirectErrorStream(true).start();
        String distLog = new String(dist.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(dist.waitFor(15, TimeUnit.MINUTES), "dist did not finish");
        System.err.println(distLog);
        assertEquals(0, dist.exitValue(), distLog);
        assertTrue(Files.isRegularFile(DIST.resolve(NAME + "-linux-x64.tar.gz")), distLog);
    }

    @Test
    void oneVersionEverywhere() throws Exception {
        Process version = new ProcessBuilder(SandboxServer.LAUNCHER.toString(), "--version").start();
        String printed = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(version.waitFor(60, TimeUnit.SECONDS));
        assertEquals("python-sandbox-mcp " + VERSION, printed);
        try (Started server = Started.with(List.of(SandboxServer.LAUNCHER.toString(), "--workers=1"), List.of())) {
            assertEquals("python-sandbox-mcp", server.init.serverInfo().name());
            assertEquals(VERSION, server.init.serverInfo().version());
        }
        Map<String, Object> registry = json(DIST.resolve("server.json"));
        assertEquals(VERSION, registry.get("version"));
        Map<String, Object> bundle = first(registry.get("packages"));
        assertEquals(VERSION, bundle.get("version"));
        assertEquals(sha256(DIST.resolve(NAME + "-linux-x64.mcpb")), bundle.get("fileSha256"));
        assertEquals(VERSION, json(DIST.resolve("bundle/manifest.json")).get("version"));
    }

    @Test
    void theRegistryEntryNamesTheRepositoryItIsPublishedFrom() throws Exception {
        Map<String, Object> registry = json(DIST.resolve("server.json"));
        assertEquals("io.github.example-owner/python-sandbox-mcp", registry.get("name"));
        assertEquals(Map.of("url", REPOSITORY, "source", "github"), registry.get("repository"));
        assertEquals(REPOSITORY + "/releases/download/v" + VERSION + "/" + NAME + "-linux-x64.mcpb",
                first(registry.get("packages")).get("identifier"));
    }

    @Test
    void theRegistryEntryMeetsTheRegistrysSchema() throws Exception {
        String entry = Files.readString(DIST.resolve("server.json"));
        // Entries the registry would refuse, which every schema must refuse: one that checks nothing cannot pass.
        String withoutNamespace = entry.replace("\"name\": \"io.github.example-owner/", "\"name\": \"");
        String noPackageType = entry.replace("\"registryType\": \"mcpb\",", "");
        List<RegistrySchema> schemas = RegistrySchema.forThisRun();
        System.err.println("server.json checked against " + schemas.stream().map(RegistrySchema::source).toList()
                + (schemas.size() > 1 ? "" : "; -Dregistry.schema=FILE adds the registry's published schema"));
        for (RegistrySchema schema : schemas) {
            assertEquals(List.of(), schema.errorsIn(entry), schema.source());
            assertFalse(schema.errorsIn(withoutNamespace).isEmpty(), schema.source() + " took " + withoutNamespace);
            assertFalse(schema.errorsIn(noPackageType).isEmpty(), schema.source() + " took " + noPackageType);
        }
    }

    @Test
    void theArchiveRunsWithNoJavaInstalled() throws Exception {
        Path unpacked = Files.createDirectory(temp.resolve("empty"));
        run(List.of("tar", "-xzf", DIST.resolve(NAME + "-linux-x64.tar.gz").toString(), "-C", unpacked.toString()));
        Path launcher = unpacked.resolve(NAME).resolve("bin/python-sandbox-mcp");
        assertEquals(Files.readString(ROOT.resolve("LICENSE")), Files.readString(unpacked.resolve(NAME).resolve("LICENSE")));
        long started = System.nanoTime();
        try (Started server = Started.with(withoutJava(List.of(launcher.toString(), "--workers=1")), List.of())) {
            assertEquals(VERSION, server.init.serverInfo().version());
            assertTrue(server.client.listTools().tools().stream().map(Tool::name).toList().contains("execute_code"));
            Map<String, Object> result = server.python("print(6 * 7)");
            System.err.printf("archive: first answer %.1f s after launch%n", (System.nanoTime() - started) / 1e9);
            assertEquals("success", result.get("status"), result.toString());
            assertEquals("42\n", result.get("stdout"));
            // A chart: Java2D and the bundled font in the archive's own runtime, inside its OS layer.
            Map<String, Object> chart = server.python("import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title('x')");
            assertEquals("success", chart.get("status"), chart.toString());
            assertEquals(1, ((List<?>) chart.get("images")).size(), chart.toString());
            // The workers ran on the archive's own Java, and the JVM took the AOT cache trained in the checkout.
            String log = String.join("\n", server.log);
            assertTrue(log.contains(unpacked.resolve(NAME).resolve("lib/worker-runtime/jdk/bin/java") + ", with its AOT cache"),
                    log);
            assertFalse(log.contains("refused the workers' AOT cache"), log);
            // And inside the OS layer, under the archive's own bubblewrap, whose licence comes along.
            assertTrue(log.contains(unpacked.resolve(NAME).resolve("lib/bwrap/bwrap") + " (bundled)"), log);
        }
        String thirdParty = Files.readString(unpacked.resolve(NAME).resolve("THIRD-PARTY.txt"));
        assertTrue(thirdParty.contains("lib/bwrap/bwrap\tbubblewrap"), thirdParty);
        assertTrue(thirdParty.contains("DejaVuSans*.ttf\tDejaVu fonts 2.37: Bitstream Vera Fonts licence"), thirdParty);
        assertTrue(thirdParty.contains("LGPL-2.0-or-later"), thirdParty);
        Path copyright = unpacked.resolve(NAME).resolve("lib/bwrap/copyright");
        assertTrue(Files.readString(copyright.resolve("bubblewrap")).contains("License: LGPL-2+"));
        assertTrue(Files.readString(copyright.resolve("common-licenses/LGPL-2")).contains("GNU LIBRARY GENERAL PUBLIC LICENSE"),
                "the licence's full text, which the copyright file names as a Debian system's");
    }

    @Test
    void theBundleStartsAsADesktopHostStartsIt() throws Exception {
        NodeToolchain.requirePresent("MCP Bundle");
        Path bundle = DIST.resolve(NAME + "-linux-x64.mcpb");
        Path installed = Files.createDirectory(temp.resolve("extension"));
        unzip(bundle, installed);
        // The licence, as a file and as the manifest's field (the registry's server.json has none).
        assertEquals(Files.readString(ROOT.resolve("LICENSE")), Files.readString(installed.resolve("LICENSE")));
        assertEquals("Apache-2.0", json(installed.resolve("manifest.json")).get("license"));
        // What the host runs: the manifest's command and arguments with ${__dirname} and user_config substituted,
        // by the function the mcpb package gives hosts for it. The user set workers and the default timeout.
        String resolve = """
                const fs = require('fs');
                import(process.argv[1] + '/dist/shared/config.js').then(async config => {
                  const manifest = JSON.parse(fs.readFileSync(process.argv[2] + '/manifest.json', 'utf8'));
                  const resolved = await config.getMcpConfigForManifest({manifest, extensionPath: process.argv[2],
                    systemDirs: {}, userConfig: {workers: 1, default_timeout: 7}, pathSeparator: '/'});
                  console.log(JSON.stringify(resolved));
                });""";
        String mcpb = ROOT.resolve("target/tools/mcpb-2.1.2/node_modules/@anthropic-ai/mcpb").toString();
        @SuppressWarnings("unchecked")
        Map<String, Object> config = (Map<String, Object>) WireCodec.parseValue(
                run(List.of("node", "-e", resolve, mcpb, installed.toString())).strip());
        List<String> command = new ArrayList<>();
        command.add((String) config.get("command"));
        @SuppressWarnings("unchecked")
        List<String> args = (List<String>) config.get("args");
        command.addAll(args);
        assertTrue(args.contains("--workers=1") && args.contains("--imports.allow="), args.toString());
        assertTrue(args.contains("--worker.os-sandbox=auto"), args.toString());
        try (Started server = Started.with(withoutJava(command), List.of())) {
            Tool execute = server.client.listTools().tools().stream().filter(t -> t.name().equals("execute_code"))
                    .findFirst().orElseThrow();
            assertTrue(execute.description().contains("Timeout: 7 s"), execute.description());
            Map<String, Object> result = server.python("import json\nprint(json.dumps({'ok': True}))");
            assertEquals("{\"ok\": true}\n", result.get("stdout"), result.toString());
            // The second language is in the bundle: GraalJS in the same workers.
            Map<String, Object> javascript = server.execute("javascript", "console.log({ ok: [1, 2].map(n => n * 3) })");
            assertEquals("{ ok: [ 3, 6 ] }\n", javascript.get("stdout"), javascript.toString());
            assertTrue(server.log.stream().anyMatch(line -> line.contains("starting 1 worker(s)")), server.log.toString());
            assertTrue(server.log.stream().anyMatch(line -> line.contains(installed.resolve("lib/bwrap/bwrap") + " (bundled)")),
                    "the bundle's own bubblewrap, with its x bit: " + server.log);
        }
    }

    /**
     * The command run as a machine without Java would run it: {@code JAVA_HOME} unset, and a {@code PATH} of
     * only the tools the launcher and the OS sandbox layer use, linked into a folder of their own. Not bwrap:
     * the release brings its own.
     */
    private List<String> withoutJava(List<String> command) throws IOException {
        Path bin = Files.createDirectories(temp.resolve("path-without-java"));
        for (String tool : List.of("bash", "sh", "dirname", "sed", "env", "uname", "cat", "flock", "prlimit")) {
            for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
                Path found = Path.of(dir, tool);
                if (Files.isExecutable(found) && !Files.exists(bin.resolve(tool))) {
                    Files.createSymbolicLink(bin.resolve(tool), found);
                }
            }
        }
        assertFalse(Files.exists(bin.resolve("java")));
        List<String> wrapped = new ArrayList<>(List.of("/usr/bin/env", "-u", "JAVA_HOME", "PATH=" + bin));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Unpacks a zip as a desktop host does: each file with the Unix mode the zip records (the launcher's x bit). */
    private static void unzip(Path zip, Path into) throws IOException {
        try (ZipFile file = ZipFile.builder().setPath(zip).get()) {
            for (ZipArchiveEntry entry : java.util.Collections.list(file.getEntries())) {
                Path target = into.resolve(entry.getName()).normalize();
                assertTrue(target.startsWith(into), entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                    continue;
                }
                Files.createDirectories(target.getParent());
                try (java.io.InputStream in = file.getInputStream(entry)) {
                    Files.copy(in, target);
                }
                if (entry.getUnixMode() != 0) {
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(permissions(entry.getUnixMode())));
                }
            }
        }
    }

    private static String permissions(int mode) {
        StringBuilder text = new StringBuilder();
        for (int shift = 6; shift >= 0; shift -= 3) {
            text.append((mode >> shift & 4) != 0 ? 'r' : '-').append((mode >> shift & 2) != 0 ? 'w' : '-')
                    .append((mode >> shift & 1) != 0 ? 'x' : '-');
        }
        return text.toString();
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), command.toString());
        assertEquals(0, process.exitValue(), command + " failed");
        return out;
    }

    private static String sha256(Path file) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(file)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Path file) throws IOException {
        return (Map<String, Object>) WireCodec.parseValue(Files.readString(file));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> first(Object list) {
        return ((List<Map<String, Object>>) list).get(0);
    }

    /** A server started over stdio by an MCP client, with its log. */
    private record Started(McpSyncClient client, InitializeResult init, List<String> log) implements AutoCloseable {
        static Started with(List<String> command, List<String> extraArgs) {
            List<String> args = new ArrayList<>(command.subList(1, command.size()));
            args.addAll(extraArgs);
            ServerParameters parameters = ServerParameters.builder(command.get(0)).args(args).build();
            StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
            List<String> log = new CopyOnWriteArrayList<>();
            transport.setStdErrorHandler(line -> {
                log.add(line);
                System.err.println("[release] " + line);
            });
            McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(240)).build();
            return new Started(client, client.initialize(), log);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> python(String code) {
            return execute("python", code);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> execute(String language, String code) {
            CallToolResult result = client.callTool(new CallToolRequest("execute_code",
                    Map.of("language", language, "code", code)));
            return (Map<String, Object>) result.structuredContent();
        }

        @Override
        public void close() {
            client.closeGracefully();
        }
    }
}
