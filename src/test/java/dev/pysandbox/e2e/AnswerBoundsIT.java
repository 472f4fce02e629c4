package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.wire.WireCodec;

/**
 * Every answer is bounded, whatever the code fills (issue 22): a hostile call can neither exhaust the server's
 * memory nor make an answer its client refuses. Measured here on a real server; the budget's arithmetic is in
 * AnswerBudgetTest and ExecuteCodeAnswerTest, and the TypeScript SDK's client reads the worst in TypeScriptClientIT.
 */
class AnswerBoundsIT {
    private final SandboxServer server = SharedServer.get();

    private Map<String, Object> run(String code) {
        return server.execute(Map.of("language", "python", "code", code, "timeout", 20));
    }

    @Test
    void attackAFortyMegabyteExceptionMessageIsAnsweredWithinItsTimeoutAndTheServerStaysUp() {
        long started = System.nanoTime();
        Map<String, Object> result = run("import sys, io\nsys.stderr = io.StringIO()\nraise Exception('x' * 40_000_000)");
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals("execution_error", result.get("status"), () -> WireCodec.encode(result));
        String message = (String) result.get("error_message");
        assertTrue(message.startsWith("Exception: xxx") && message.length() <= AnswerBudget.ERROR_MESSAGE_CHARS,
                () -> message.length() + " characters");
        assertEquals(Boolean.TRUE, ((Map<?, ?>) result.get("truncated")).get("error_message"));
        assertTrue(seconds <= 22, "answered after " + seconds + " s, past its timeout + 2 s");
        assertEquals("1\n", run("print(1)").get("stdout"), "the server is still up");
    }

    @Test
    void attackASixMegabyteExceptionMessageMakesASmallAnswer() {
        CallToolResult answer = server.call("execute_code", Map.of("language", "python", "code",
                "import sys, io\nsys.stderr = io.StringIO()\nprint('before')\nraise Exception('y' * 6_000_000)"));
        String json = WireCodec.encode(answer);
        assertTrue(json.getBytes(StandardCharsets.UTF_8).length < 100_000, () -> json.length() + " characters");
        Map<?, ?> result = (Map<?, ?>) answer.structuredContent();
        assertEquals("before\n", result.get("stdout"));
        assertTrue(((String) result.get("error_message")).endsWith("[cut at 4096 characters]"));
    }

    @Test
    void attackAHundredFilesWithFourKilobytePathsAreNotListedInFull() {
        Map<String, Object> result = run("""
                import os
                folder = '/'.join(['d' * 250] * 15)
                os.makedirs(folder)
                for i in range(100):
                    open(f'{folder}/{i:03}.txt', 'w').write('x')
                print(len(folder))
                """);
        assertEquals("success", result.get("status"), () -> WireCodec.encode(result));
        List<?> files = (List<?>) result.get("files");
        int omitted = ((Number) result.get("files_omitted")).intValue();
        assertEquals(100, files.size() + omitted);
        assertTrue(omitted > 0 && files.size() < 70, files.size() + " listed");
        assertEquals(Boolean.TRUE, ((Map<?, ?>) result.get("truncated")).get("files"));
    }

    @Test
    void attackAThousandSyntaxErrorsMakeAShortValidationReport() {
        CallToolResult answer = server.call("validate_code", Map.of("code", "import socket\n".repeat(5_000)));
        Map<?, ?> report = (Map<?, ?>) answer.structuredContent();
        assertEquals(Boolean.FALSE, report.get("valid"), report::toString);
        assertEquals(100, ((List<?>) report.get("errors")).size(), report::toString);
        assertEquals(4_900, ((Number) report.get("errors_omitted")).intValue());
    }
}
