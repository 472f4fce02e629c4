package dev.pysandbox.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;

import dev.pysandbox.config.AuditSettings;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;

/** The audit log's lines, and its bound: Logback rotates the file and keeps only so many. */
class AuditLogTest {
    private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();

    private static AuditEntry entry(String code) {
        return new AuditEntry("2026-12-07T01:00:00.123Z", "http", "alice", "execute_code", "python", "s1",
                "ab".repeat(32), 42, null, "success", 17,
                List.of(new ToolCall("github.search", false, 12, ToolErrorKind.TIMEOUT)), 321, code);
    }

    @Test
    void anEntryIsOneLineOfJsonWithItsFieldsInOrder() throws IOException {
        String line = JSON.writeValueAsString(entry(null));
        assertEquals("{\"time\":\"2026-12-07T01:00:00.123Z\",\"transport\":\"http\",\"principal\":\"alice\","
                + "\"tool\":\"execute_code\",\"language\":\"python\",\"session_id\":\"s1\",\"code_sha256\":\""
                + "ab".repeat(32) + "\",\"code_bytes\":42,\"status\":\"success\",\"duration_ms\":17,"
                + "\"tool_calls\":[{\"tool\":\"github.search\",\"ok\":false,\"duration_ms\":12,\"error\":\"timeout\"}],"
                + "\"bytes_returned\":321}", line);
    }

    @Test
    void theFileIsRotatedBySizeAndOnlySoManyAreKept(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("audit.log");
        try (AuditLog log = AuditLog.open(new AuditSettings(true, file, true, 4_096, 2), JSON)) {
            String code = "print('x')\n".repeat(100);
            for (int i = 0; i < 200; i++) {
                log.write(entry(code));
            }
        }
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertTrue(names.contains("audit.log") && names.size() <= 3, "the file and at most 2 rotated: " + names);
        assertTrue(names.contains("audit.log.1"), "rotated: " + names);
        long total = 0;
        for (String name : names) {
            total += Files.size(dir.resolve(name));
            for (String line : Files.readAllLines(dir.resolve(name))) {
                Map<?, ?> parsed = JSON.readValue(line, Map.class);
                assertEquals("alice", parsed.get("principal"));
                assertTrue(((String) parsed.get("code")).startsWith("print('x')"));
            }
        }
        assertTrue(total < 200L * 1_500, "bounded: " + total + " bytes of " + 200 * 1_500);
    }
}
