package dev.pysandbox.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.OutputFile;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.SessionEnding;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.Truncation;

/**
 * The largest answer {@link AnswerBudget#largestAnswerBytes} promises holds for the worst text guest code can
 * write: control characters, which JSON escapes to six bytes (seven in the text block, JSON inside JSON).
 */
class ExecuteCodeAnswerTest {
    private static final AnswerBudget DEFAULTS = AnswerBudget.of(51_200, 1_048_576);
    private static final String WORST = "\u0001";

    private static long messageBytes(CallToolResult answer) throws Exception {
        var response = new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 1, answer, null);
        return McpJsonDefaults.getMapper().writeValueAsString(response).getBytes(StandardCharsets.UTF_8).length;
    }

    /** Everything a hostile call can fill, filled with the costliest character, then bounded as the server does. */
    private static ExecutionResult worst(List<OutputFile> files) {
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            calls.add(new ToolCall(WORST.repeat(1_000), false, 1, ToolErrorKind.SERVER_UNAVAILABLE)); // the longest kind
        }
        RunReport report = new RunReport(Status.EXECUTION_ERROR, WORST.repeat(200_000),
                WORST.repeat(200_000), 1, 1.0, WORST.repeat(100_000), WORST.repeat(100_000), Truncation.NONE)
                .withFiles(files, 0);
        return ExecutionResult.from(DEFAULTS.bound(report)).toolCalls(calls, 0)
                .installing(java.util.Collections.nCopies(100, WORST.repeat(1_000))).build();
    }

    @Test
    void attackTheWorstTextInEveryFieldStaysWithinTheLargestAnswer() throws Exception {
        List<OutputFile> files = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String content = WORST.repeat(100_000);
            files.add(new OutputFile(WORST.repeat(255) + i, content.length(), content, null, false));
        }
        long bytes = messageBytes(ExecuteCodeTool.answer(worst(files)));
        assertTrue(bytes <= DEFAULTS.largestAnswerBytes(), bytes + " > " + DEFAULTS.largestAnswerBytes());
    }

    @Test
    void attackThousandsOfEmptyFilesStayWithinTheLargestAnswer() throws Exception {
        List<OutputFile> files = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            files.add(new OutputFile(Integer.toString(i), 0, "", null, false));
        }
        ExecutionResult result = worst(files);
        assertTrue(result.filesOmitted() > 0);
        long bytes = messageBytes(ExecuteCodeTool.answer(result));
        assertTrue(bytes <= DEFAULTS.largestAnswerBytes(), bytes + " > " + DEFAULTS.largestAnswerBytes());
    }

    @Test
    void aLargeResultsTextBlockLeavesOutTheFilesContentsWhichTheResourcesCarry() {
        String content = "z".repeat(500_000);
        ExecutionResult result = ExecutionResult.from(DEFAULTS.bound(new RunReport(Status.SUCCESS, "ok\n", "", 0, 0.1,
                null, null, Truncation.NONE).withFiles(List.of(new OutputFile("big.txt", content.length(), content, null,
                false)), 0))).build();
        CallToolResult answer = ExecuteCodeTool.answer(result);
        String text = ((TextContent) answer.content().get(0)).text();
        assertFalse(text.contains("zzzz"), "the text block repeats the file");
        assertTrue(text.contains("\"path\":\"big.txt\"") && text.contains("\"stdout\":\"ok\\n\""), text);
        assertEquals(2, answer.content().size(), "the file is still a resource");
        ExecutionResult small = ExecutionResult.from(new RunReport(Status.SUCCESS, "ok\n", "", 0, 0.1, null, null,
                Truncation.NONE).withFiles(List.of(new OutputFile("small.txt", 4, "zzzz", null, false)), 0)).build();
        assertTrue(((TextContent) ExecuteCodeTool.answer(small).content().get(0)).text().contains("zzzz"),
                "a small answer's text block stays whole");
    }

    /** An answer with every field set: every name and inclusion rule of the answer's JSON shows in it. */
    private static final ExecutionResult FULL = new ExecutionResult(Status.SUCCESS, "1\n", "", 0, 0.25, null,
            Map.of("k", 1), Truncation.NONE, List.of(new OutputFile("a.txt", 2, "hi", null, false),
                    new OutputFile("b.bin", 3, null, "AAEC", true)), 2, List.of("yaml"),
            List.of(new ToolCall("srv.echo", true, 3, null), new ToolCall("srv.x", false, 5, ToolErrorKind.TIMEOUT)), 1,
            true, 2, null);
    private static final String NOTHING_CUT = "\"truncated\":{\"stdout\":false,\"stderr\":false,\"result\":false,"
            + "\"error_message\":false,\"files\":false}";

    /** What clients read, byte for byte, in the text block and in {@code structuredContent} alike. */
    @Test
    void theAnswersJsonKeepsItsFieldNamesOrderAndInclusionRules() throws Exception {
        Map<ExecutionResult, String> expected = new LinkedHashMap<>();
        expected.put(FULL, "{\"status\":\"success\",\"stdout\":\"1\\n\",\"stderr\":\"\",\"exit_code\":0,"
                + "\"execution_time\":0.25,\"error_message\":null,\"result\":{\"k\":1}," + NOTHING_CUT + ","
                + "\"files\":[{\"path\":\"a.txt\",\"size\":2,\"text\":\"hi\",\"truncated\":false},"
                + "{\"path\":\"b.bin\",\"size\":3,\"base64\":\"AAEC\",\"truncated\":true}],\"files_omitted\":2,"
                + "\"installing\":[\"yaml\"],\"tool_calls\":[{\"tool\":\"srv.echo\",\"ok\":true,\"duration_ms\":3},"
                + "{\"tool\":\"srv.x\",\"ok\":false,\"duration_ms\":5,\"error\":\"timeout\"}],\"tool_calls_omitted\":1,"
                + "\"session_new\":true,\"session_rebuilt\":2}");
        expected.put(ExecutionResult.setupError("no"), "{\"status\":\"setup_error\",\"stdout\":\"\",\"stderr\":\"\","
                + "\"exit_code\":1,\"execution_time\":0.0,\"error_message\":\"no\",\"result\":null," + NOTHING_CUT + ","
                + "\"files\":[],\"tool_calls\":[]}");
        expected.put(ExecutionResult.sessionEnded(SessionEnding.EXPIRED, "gone"), "{\"status\":\"setup_error\","
                + "\"stdout\":\"\",\"stderr\":\"\",\"exit_code\":1,\"execution_time\":0.0,\"error_message\":\"gone\","
                + "\"result\":null," + NOTHING_CUT + ",\"files\":[],\"tool_calls\":[],\"session_ended\":\"expired\"}");
        for (Map.Entry<ExecutionResult, String> answer : expected.entrySet()) {
            CallToolResult sent = ExecuteCodeTool.answer(answer.getKey());
            assertEquals(answer.getValue(), ((TextContent) sent.content().get(0)).text());
            assertEquals(answer.getValue(), McpJsonDefaults.getMapper().writeValueAsString(sent.structuredContent()));
        }
    }
}
