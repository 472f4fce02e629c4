package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

import dev.pysandbox.wire.WireCodec;

/**
 * The audit log (issue 42): one JSON line per call, with who called, what ran (by digest), how it ended, what it
 * called downstream and how much came back; the code itself only when the operator asks; never on stdout.
 */
class AuditLogIT {
    private static final String ALICE = "alice-audit-token";

    private static List<Map<?, ?>> lines(Path file) throws Exception {
        return Files.readAllLines(file).stream().<Map<?, ?>>map(line -> (Map<?, ?>) WireCodec.parseValue(line)).toList();
    }

    @Test
    void everyRemoteCallIsOneLineWithItsPrincipalAndTheCodesDigestButNotTheCode(@TempDir Path temp) throws Exception {
        Path audit = temp.resolve("audit.log");
        Path servers = CodeModeIT.serversFile(temp, "servers.json", CodeModeIT.stub("stub", List.of("add"), List.of()));
        String secretCode = "password = 'hunter2'\nprint(context.tools.call('stub.add', {'a': 1, 'b': 2})['sum'])";
        String failing = "null.field";
        try (HttpSandboxServer server = HttpSandboxServer.start(Map.of("alice", ALICE), "--workers=1",
                "--code-mode.servers=" + servers, "--audit.log=" + audit)) {
            McpSyncClient alice = server.client(ALICE);
            Instant before = Instant.now();
            alice.callTool(new CallToolRequest("execute_code", Map.of("language", "python", "code", secretCode,
                    "session_id", "s1")));
            alice.callTool(new CallToolRequest("execute_code", Map.of("language", "javascript", "code", failing)));
            alice.callTool(new CallToolRequest("validate_code", Map.of("code", "def f(:")));
            alice.callTool(new CallToolRequest("execute_code", Map.of("language", "cobol", "code", "x")));
            alice.closeGracefully();

            List<Map<?, ?>> entries = lines(audit);
            assertEquals(4, entries.size(), entries.toString());
            Map<?, ?> first = entries.get(0);
            assertEquals("http", first.get("transport"));
            assertEquals("alice", first.get("principal"));
            assertEquals("execute_code", first.get("tool"));
            assertEquals("python", first.get("language"));
            assertEquals("s1", first.get("session_id"));
            assertEquals(HttpSandboxServer.sha256(secretCode), first.get("code_sha256"));
            assertEquals(secretCode.getBytes(StandardCharsets.UTF_8).length, ((Number) first.get("code_bytes")).intValue());
            assertEquals("success", first.get("status"));
            assertTrue(((Number) first.get("duration_ms")).longValue() >= 0);
            assertTrue(((Number) first.get("bytes_returned")).longValue() > 10, first.toString());
            List<?> toolCalls = (List<?>) first.get("tool_calls");
            assertEquals(1, toolCalls.size(), first.toString());
            assertEquals("stub.add", ((Map<?, ?>) toolCalls.get(0)).get("tool"));
            assertEquals(Boolean.TRUE, ((Map<?, ?>) toolCalls.get(0)).get("ok"));
            Instant time = Instant.parse((String) first.get("time"));
            assertFalse(time.isBefore(before.minusSeconds(1)), time.toString());

            assertEquals("javascript", entries.get(1).get("language"));
            assertEquals("execution_error", entries.get(1).get("status"));
            assertEquals(HttpSandboxServer.sha256(failing), entries.get(1).get("code_sha256"));
            assertEquals("validate_code", entries.get(2).get("tool"));
            assertEquals("setup_error", entries.get(3).get("status"), "a refused call is audited too");
            assertNull(entries.get(3).get("language"), "a language the sandbox does not run is named by none");

            String written = Files.readString(audit);
            assertFalse(written.contains("hunter2"), "the code itself is not written unless asked for");
            assertTrue(server.log.stream().noneMatch(line -> line.contains("\"code_sha256\"")),
                    "the audit log is not the server's log");
        }
    }

    /** Asked for, the code is written too; and stderr is a destination (stdout never is: it carries the protocol). */
    @Test
    void onStderrWithTheCodeWhenTheOperatorAsksOverStdio() throws Exception {
        try (SandboxServer server = SandboxServer.start("--workers=1", "--audit.log=stderr", "--audit.include-code=true")) {
            server.client.callTool(new CallToolRequest("execute_code", Map.of("language", "python",
                    "code", "print('audited')")));
            long deadline = System.nanoTime() + 10_000_000_000L;
            Map<?, ?> entry = null;
            while (entry == null && System.nanoTime() < deadline) {
                entry = server.log.stream().filter(line -> line.startsWith("{\"time\""))
                        .map(line -> (Map<?, ?>) WireCodec.parseValue(line)).findFirst().orElse(null);
                Thread.sleep(50);
            }
            assertTrue(entry != null, "no audit line on stderr: " + server.log);
            assertEquals("stdio", entry.get("transport"));
            assertNull(entry.get("principal"));
            assertEquals("print('audited')", entry.get("code"));
            assertEquals("success", entry.get("status"));
        }
    }
}
