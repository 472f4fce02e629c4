package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.wire.WireCodec;

/**
 * Code mode against a downstream we did not write: the reference server {@code @modelcontextprotocol/server-everything}
 * from npm (pinned, installed under target/ by {@link ServerEverything}; skipped with a message without node).
 * It answers in its own ways: plain text, JSON with structured content, and an environment dump, which must
 * not show the secret planted in our server's environment.
 */
class ServerEverythingIT {
    private static final String SECRET_NAME = "EVERYTHING_PLANTED_SECRET";
    private static final String SECRET_VALUE = "do-not-leak-7f3a";

    @TempDir
    static Path temp;
    private static SandboxServer server;

    @BeforeAll
    static void start() throws Exception {
        Path entry = ServerEverything.install();
        Path servers = temp.resolve("servers.json");
        Files.writeString(servers, WireCodec.encode(Map.of("mcpServers", Map.of("everything", Map.of(
                "command", "node", "args", List.of(entry.toString(), ServerEverything.STDIO),
                "tools", List.of("echo", "get-sum", "get-structured-content", "get-env"))))));
        server = SandboxServer.start(Map.of(SECRET_NAME, SECRET_VALUE), spec -> spec,
                "--code-mode.servers=" + servers, "--workers=1");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Map<String, Object> run(String code) {
        return server.execute(Map.of("language", "python", "code", code));
    }

    @Test
    void textStructuredAndErrorAnswersOfARealServer() {
        Map<String, Object> result = run("""
                t = context.tools
                echo = t.call('everything.echo', {'message': 'hi'})
                total = t.everything.get_sum(a=2, b=3)
                weather = t.call('everything.get-structured-content', {'location': 'New York'})
                try:
                    t.call('everything.get-sum', {'a': 'two', 'b': 3})
                    bad = 'accepted'
                except ToolError as e:
                    bad = e.kind
                result = [echo, total, sorted(weather), bad, [x['tool'] for x in t.list()]]
                """);
        assertEquals("success", result.get("status"), result.toString());
        @SuppressWarnings("unchecked")
        List<Object> values = (List<Object>) result.get("result");
        assertEquals("Echo: hi", values.get(0));
        assertTrue(String.valueOf(values.get(1)).contains("5"), values.toString());
        assertTrue(((List<?>) values.get(2)).contains("temperature"), values.toString());
        assertEquals("invalid_params", values.get(3));
        assertEquals(List.of("everything.echo", "everything.get-env", "everything.get-structured-content", "everything.get-sum"),
                values.get(4));
        assertEquals(4, ((List<?>) result.get("tool_calls")).size(), result.toString());
    }

    @Test
    void theSameServerOverStreamableHttpWithAConfiguredHeader() throws Exception {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder("node", ServerEverything.install().toString(), "streamableHttp")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("PORT", Integer.toString(port));
        Process http = builder.start();
        try {
            awaitListening(port);
            Path servers = temp.resolve("http.json");
            Files.writeString(servers, WireCodec.encode(Map.of("mcpServers", Map.of("remote", Map.of(
                    "type", "http", "url", "http://127.0.0.1:${EVERYTHING_PORT}/mcp",
                    "headers", Map.of("Authorization", "Bearer ${EVERYTHING_TOKEN:-none}"),
                    "tools", List.of("echo"))))));
            try (SandboxServer viaHttp = SandboxServer.start(Map.of("EVERYTHING_PORT", Integer.toString(port)),
                    spec -> spec, "--code-mode.servers=" + servers, "--workers=1")) {
                Map<String, Object> result = viaHttp.execute(Map.of("language", "python", "code",
                        "result = context.tools.call('remote.echo', {'message': 'over http'})"));
                assertEquals("Echo: over http", result.get("result"), result.toString());
            }
        } finally {
            http.destroyForcibly();
        }
    }

    private static void awaitListening(int port) throws InterruptedException {
        for (int i = 0; i < 120; i++) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(250);
            }
        }
        throw new AssertionError("server-everything did not listen on port " + port);
    }

    @Test
    void itsEnvironmentToolShowsNoneOfOurServersEnvironment() {
        Map<String, Object> result = run("result = str(context.tools.call('everything.get-env'))");
        assertEquals("success", result.get("status"), result.toString());
        String env = String.valueOf(result.get("result"));
        assertTrue(env.contains("PATH"), env);
        assertFalse(env.contains(SECRET_NAME) || env.contains(SECRET_VALUE), env);
    }
}
