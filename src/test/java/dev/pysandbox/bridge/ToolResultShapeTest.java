package dev.pysandbox.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.execution.ToolErrorKind;

/** What code gets back from each shape of tool answer. */
class ToolResultShapeTest {
    private final ToolResultShape shape = new ToolResultShape(McpJsonDefaults.getMapper());
    private final Tool plain = Tool.builder().name("t").inputSchema(McpJsonDefaults.getMapper(), "{\"type\":\"object\"}").build();
    private final Tool withOutputSchema = Tool.builder().name("t").inputSchema(McpJsonDefaults.getMapper(), "{\"type\":\"object\"}")
            .outputSchema(McpJsonDefaults.getMapper(), "{\"type\":\"object\"}").build();

    private static CallToolResult text(String... blocks) {
        CallToolResult.Builder builder = CallToolResult.builder();
        for (String block : blocks) {
            builder.addTextContent(block);
        }
        return builder.build();
    }

    @Test
    void structuredContentWinsOverText() throws ToolFailure {
        CallToolResult result = CallToolResult.builder().addTextContent("{\"sum\": 5}").structuredContent(Map.of("sum", 5)).build();
        assertEquals(Map.of("sum", 5), shape.value(result, withOutputSchema, false));
    }

    @Test
    void jsonInTextIsParsedWhenTheToolDeclaresNoOutputSchema() throws ToolFailure {
        assertEquals(Map.of("a", List.of(1, 2)), shape.value(text(" {\"a\": [1, 2]} "), plain, false));
        assertEquals(List.of(1, 2), shape.value(text("[1, 2]"), plain, false));
        assertEquals("{\"a\": 1}", shape.value(text("{\"a\": 1}"), withOutputSchema, false));
    }

    @Test
    void plainTextAndTextThatOnlyLooksLikeJsonStayText() throws ToolFailure {
        assertEquals("hello", shape.value(text("hello"), plain, false));
        assertEquals("{not json}", shape.value(text("{not json}"), plain, false));
        assertEquals("line one\nline two", shape.value(text("line one", "line two"), plain, false));
    }

    @Test
    void nonTextBlocksComeAsTheirMcpShape() throws ToolFailure {
        CallToolResult image = CallToolResult.builder().content(List.of(new ImageContent(null, "aGk=", "image/png"))).build();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> blocks = (List<Map<String, Object>>) shape.value(image, plain, false);
        assertEquals("image", blocks.get(0).get("type"));
        assertEquals("aGk=", blocks.get(0).get("data"));
    }

    @Test
    void rawIsTheWholeResult() throws ToolFailure {
        @SuppressWarnings("unchecked")
        Map<String, Object> raw = (Map<String, Object>) shape.value(text("hi"), plain, true);
        assertEquals(List.of(Map.of("type", "text", "text", "hi")), raw.get("content"));
    }

    @Test
    void anErrorAnswerIsAToolErrorCarryingTheText() {
        CallToolResult failed = CallToolResult.builder().content(List.of(new TextContent("it broke"))).isError(true).build();
        ToolFailure failure = assertThrows(ToolFailure.class, () -> shape.value(failed, plain, false));
        assertEquals(ToolErrorKind.TOOL_ERROR, failure.kind());
        assertEquals("it broke", failure.getMessage());
        assertEquals("it broke", failure.result());
    }
}
