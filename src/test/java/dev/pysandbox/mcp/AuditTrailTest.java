package dev.pysandbox.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import dev.pysandbox.audit.AuditEntry;
import dev.pysandbox.audit.AuditLog;
import dev.pysandbox.auth.Principal;
import dev.pysandbox.auth.Scope;
import dev.pysandbox.config.AuditSettings;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;

/** What the audit log says of a call: the code by digest and length unless the operator asks for it. */
class AuditTrailTest {
    private static final Instant NOW = Instant.parse("2026-12-07T01:02:03.456789Z");
    private static final CallToolResult RESULT = CallToolResult.builder()
            .content(List.of(new TextContent("hello"))).isError(false).build();
    private static final ToolAnswer ANSWER = new ToolAnswer(RESULT, Status.SUCCESS, Language.PYTHON,
            List.of(new ToolCall("github.search", true, 5, null)));

    private static AuditEntry entry(Path dir, boolean includeCode, EndedCall call) {
        try (AuditLog log = AuditLog.open(new AuditSettings(true, dir.resolve("audit.log"), includeCode, 1 << 20, 1),
                McpJsonDefaults.getMapper())) {
            return new AuditTrail(log, McpJsonDefaults.getMapper()).entry(call, NOW);
        }
    }

    @Test
    void aRemoteCallIsWrittenWithItsPrincipalAndTheCodesDigestNotTheCode(@TempDir Path dir) throws Exception {
        Caller alice = new Caller(new Principal("https://idp.example.com", "alice"), Set.of(Scope.EXECUTE), p -> { }, () -> { });
        AuditEntry entry = entry(dir, false, new EndedCall("execute_code", alice,
                Map.of("language", "python", "code", "print('héllo')", "session_id", "s1"), ANSWER, Duration.ofMillis(1234)));
        assertEquals("2026-12-07T01:02:03.456Z", entry.time());
        assertEquals("http", entry.transport());
        assertEquals("alice@https://idp.example.com", entry.principal());
        assertEquals("python", entry.language());
        assertEquals("s1", entry.sessionId());
        // printf "print('héllo')" | sha256sum
        assertEquals("652ac71feacf8718c3e85e02253c29e865d643eb4457600a61e184152da35762", entry.codeSha256());
        assertEquals(15, entry.codeBytes(), "UTF-8 bytes: é is two");
        assertNull(entry.code());
        assertEquals("success", entry.status());
        assertEquals(1234, entry.durationMs());
        assertEquals(List.of(new ToolCall("github.search", true, 5, null)), entry.toolCalls());
        assertEquals(McpJsonDefaults.getMapper().writeValueAsBytes(RESULT).length, entry.bytesReturned());
    }

    @Test
    void theCodeIsWrittenOnlyWhenTheOperatorAsks(@TempDir Path dir) {
        AuditEntry entry = entry(dir, true, new EndedCall("execute_code", Caller.stdio(p -> { }),
                Map.of("code", "x = 1"), ANSWER, Duration.ZERO));
        assertEquals("x = 1", entry.code());
        assertEquals("stdio", entry.transport());
        assertNull(entry.principal());
    }

    /** run_python's scriptPath wins over code: the code in the arguments did not run, the file did. */
    @Test
    void aScriptIsNamedByItsPathAndTheUnusedCodeIsNotDigested(@TempDir Path dir) {
        AuditEntry entry = entry(dir, true, new EndedCall("run_python", Caller.stdio(p -> { }),
                Map.of("code", "ignored()", "scriptPath", "jobs/report.py"), ANSWER, Duration.ZERO));
        assertEquals("jobs/report.py", entry.scriptPath());
        assertNull(entry.codeSha256());
        assertNull(entry.code());
    }
}
