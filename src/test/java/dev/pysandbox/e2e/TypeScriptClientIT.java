package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.wire.WireCodec;

/**
 * The TypeScript SDK's client (npm {@code @modelcontextprotocol/sdk}, what the inspector and many agents
 * use) gives up on a request after its timeout unless progress resets it (issue 11). A 15-second call with a
 * 5-second client timeout gets its result when the client passes a progress token and
 * {@code resetTimeoutOnProgress}, and times out on the client without one: which shows this test can fail.
 *
 * <p>The set-up installs the pinned SDK into {@code target/ts-client}; without {@code node} and {@code npm}
 * the tests are skipped with a message.
 */
class TypeScriptClientIT {
    static final String SDK_VERSION = "1.32.2";
    private static final Path CLIENT_DIR = SandboxServer.PROJECT_ROOT.resolve("target/ts-client");
    private static final String SCRIPT = "long-call.mjs";
    private static final String HOSTILE_SCRIPT = "hostile-answers.mjs";
    /** OAuthIT's: the SDK's own OAuth flow against a server in OAuth mode. */
    static final String OAUTH_SCRIPT = "oauth-flow.mjs";

    @BeforeAll
    static void installTheTypeScriptSdk() throws IOException, InterruptedException {
        NodeToolchain.requirePresent("TypeScript client");
        Files.createDirectories(CLIENT_DIR);
        Path installed = CLIENT_DIR.resolve("node_modules/@modelcontextprotocol/sdk/package.json");
        if (!Files.exists(installed) || !Files.readString(installed).contains("\"version\": \"" + SDK_VERSION + "\"")) {
            Files.writeString(CLIENT_DIR.resolve("package.json"), "{\"name\":\"ts-client-it\",\"private\":true,"
                    + "\"type\":\"module\",\"dependencies\":{\"@modelcontextprotocol/sdk\":\"" + SDK_VERSION + "\"}}\n");
            Process npm = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--loglevel=error")
                    .directory(CLIENT_DIR.toFile()).redirectErrorStream(true).start();
            String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(npm.waitFor(10, TimeUnit.MINUTES) && npm.exitValue() == 0, "npm install failed:\n" + output);
        }
        for (String name : List.of(SCRIPT, HOSTILE_SCRIPT, OAUTH_SCRIPT)) {
            try (InputStream script = TypeScriptClientIT.class.getResourceAsStream("/ts-client/" + name)) {
                Files.copy(script, CLIENT_DIR.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    @Test
    void aFifteenSecondCallOutlivesAFiveSecondClientTimeoutWithProgress() throws Exception {
        Map<String, Object> outcome = longCall("with-progress");
        assertEquals(Boolean.TRUE, outcome.get("ok"), outcome.toString());
        assertEquals("finished\n", outcome.get("stdout"));
        assertTrue(((List<?>) outcome.get("progress")).size() >= 10, "about one notification a second: " + outcome);
        assertTrue(((Number) outcome.get("seconds")).doubleValue() >= 15, outcome.toString());
    }

    @Test
    void withoutAProgressTokenTheSameCallTimesOutOnTheClient() throws Exception {
        Map<String, Object> outcome = longCall("without-progress");
        assertEquals(Boolean.FALSE, outcome.get("ok"), outcome.toString());
        assertTrue(String.valueOf(outcome.get("error")).contains("timed out"), outcome.toString());
        assertEquals(List.of(), outcome.get("progress"));
        assertTrue(((Number) outcome.get("seconds")).doubleValue() < 15, outcome.toString());
    }

    /**
     * Issue 22: a 6 MB exception message once made a 12 MB answer, which this client refused, losing its
     * connection for every later call. The worst answer the budget allows is read too, and the next call works.
     */
    @Test
    @SuppressWarnings("unchecked")
    void attackHostileAnswersNeverExceedWhatTheClientReads() throws Exception {
        Map<String, Object> outcome = runScript(List.of("node", HOSTILE_SCRIPT, SandboxServer.LAUNCHER.toString(),
                "--workers=1", NO_JIT_WORKER));
        List<Map<String, Object>> calls = (List<Map<String, Object>>) outcome.get("calls");
        assertEquals(3, calls.size(), outcome.toString());
        for (Map<String, Object> call : calls) {
            assertEquals(Boolean.TRUE, call.get("ok"), call.toString());
        }
        assertEquals("execution_error", calls.get(0).get("status"), calls.toString());
        assertEquals("execution_error", calls.get(1).get("status"), calls.toString());
        assertTrue(((Number) calls.get(1).get("bytes")).intValue() > 1_000_000, "the worst answer is large: " + calls);
        assertEquals("still connected\n", calls.get(2).get("stdout"), calls.toString());
    }

    /** The client's servers run no JIT worker, as every suite server ({@link SandboxServer#SUITE_FLAGS}). */
    private static final String NO_JIT_WORKER = "--worker.jit-workers=0";

    /** Runs the script's long call against a fresh server and returns what it printed. */
    private static Map<String, Object> longCall(String mode) throws IOException, InterruptedException {
        return runScript(List.of("node", SCRIPT, SandboxServer.LAUNCHER.toString(), mode,
                "--workers=1", "--progress.interval-seconds=1", NO_JIT_WORKER));
    }

    /** Runs a client script (against a fresh server, or the one it names) and returns the JSON of its last line. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> runScript(List<String> command) throws IOException, InterruptedException {
        Process node = new ProcessBuilder(command).directory(CLIENT_DIR.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(node.waitFor(5, TimeUnit.MINUTES), "the client script did not finish");
        assertEquals(0, node.exitValue(), "client script failed; it printed: " + output);
        assertFalse(output.isEmpty(), "the client script printed nothing");
        String last = output.substring(output.lastIndexOf('\n') + 1);
        return (Map<String, Object>) WireCodec.parseValue(last);
    }
}
