package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The reference MCP server {@code @modelcontextprotocol/server-everything} from npm, pinned, as a real
 * third-party downstream for the code-mode interop tests. {@link #install()} installs it into
 * {@code target/server-everything} (once per version) and returns its entry script, which a config launches as
 * {@code node <entry> stdio}. Without {@code node} and {@code npm} the calling tests are skipped with a message.
 */
final class ServerEverything {
    static final String VERSION = "2026.8.31";
    /** The argument after the entry script that selects the stdio transport (the default too, but explicit). */
    static final String STDIO = "stdio";
    private static final String PACKAGE = "@modelcontextprotocol/server-everything";
    private static final Path DIR = SandboxServer.PROJECT_ROOT.resolve("target/server-everything");

    private ServerEverything() {
    }

    /** Installs the pinned package unless already there, and returns the path of its entry script. */
    static Path install() throws IOException, InterruptedException {
        NodeToolchain.requirePresent("server-everything");
        Path packageDir = DIR.resolve("node_modules/" + PACKAGE);
        Path installed = packageDir.resolve("package.json");
        if (!Files.exists(installed) || !Files.readString(installed).contains("\"version\": \"" + VERSION + "\"")) {
            // The checked-in lockfile pins the package's own dependencies too; npm ci installs exactly it.
            Files.createDirectories(DIR);
            for (String file : new String[] {"package.json", "package-lock.json"}) {
                try (var in = ServerEverything.class.getResourceAsStream("/server-everything/" + file)) {
                    Files.copy(in, DIR.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
                    .directory(DIR.toFile()).redirectErrorStream(true).start();
            String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(npm.waitFor(10, TimeUnit.MINUTES) && npm.exitValue() == 0, "npm install failed:\n" + output);
        }
        // package.json: "bin": {"mcp-server-everything": "dist/index.js"}.
        Path entry = packageDir.resolve("dist/index.js");
        assertTrue(Files.isRegularFile(entry), "no entry script at " + entry);
        return entry;
    }
}
