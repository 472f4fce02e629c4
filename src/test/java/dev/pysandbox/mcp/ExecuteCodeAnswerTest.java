package dev.pysandbox.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.ExecutionResult.Truncation;
import dev.pysandbox.execution.OutputFile;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;

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
        ExecutionResult result = new ExecutionResult(Status.EXECUTION_ERROR, WORST.repeat(200_000),
                WORST.repeat(200_000), 1, 1.0, WORST.repeat(100_000), WORST.repeat(100_000), Truncation.NONE)
                .withFiles(files, 0).withToolCalls(calls, 0)
                .withInstalling(java.util.Collections.nCopies(100, WORST.repeat(1_000)));
        return DEFAULTS.bound(result);
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
        ExecutionResult result = DEFAULTS.bound(new ExecutionResult(Status.SUCCESS, "ok\n", "", 0, 0.1, null, null,
                Truncation.NONE).withFiles(List.of(new OutputFile("big.txt", content.length(), content, null, false)), 0));
        CallToolResult answer = ExecuteCodeTool.answer(result);
        String text = ((TextContent) answer.content().get(0)).text();
        assertFalse(text.contains("zzzz"), "the text block repeats the file");
        assertTrue(text.contains("\"path\":\"big.txt\"") && text.contains("\"stdout\":\"ok\\n\""), text);
        assertEquals(2, answer.content().size(), "the file is still a resource");
        ExecutionResult small = new ExecutionResult(Status.SUCCESS, "ok\n", "", 0, 0.1, null, null, Truncation.NONE)
                .withFiles(List.of(new OutputFile("small.txt", 4, "zzzz", null, false)), 0);
        assertTrue(((TextContent) ExecuteCodeTool.answer(small).content().get(0)).text().contains("zzzz"),
                "a small answer's text block stays whole");
    }
}
