package dev.pysandbox.bridge;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.execution.ToolErrorKind;

/**
 * What code gets back from a tool: the value a person calling it from Python would want. Many tools put
 * their JSON inside a text block and give no {@code structuredContent}, and code handed that text would need
 * {@code json.loads} on every answer, so (as README.md's code mode API table promises): {@code
 * structuredContent} when the tool gives it; otherwise its text, parsed when it is a JSON object or array and
 * the tool declares no output schema; {@code raw} asks for the whole MCP result instead.
 */
final class ToolResultShape {
    private final McpJsonMapper json;

    ToolResultShape(McpJsonMapper json) {
        this.json = json;
    }

    /** The tool's answer as code sees it; a tool that answered isError becomes a {@code tool_error}. */
    Object value(CallToolResult result, Tool tool, boolean raw) throws ToolFailure {
        Object value = raw ? json.convertValue(result, Map.class) : shaped(result, tool);
        if (Boolean.TRUE.equals(result.isError())) {
            String text = text(result.content());
            throw new ToolFailure(ToolErrorKind.TOOL_ERROR,
                    text.isBlank() ? "the tool reported an error" : cut(text, 2_000), value);
        }
        return value;
    }

    private Object shaped(CallToolResult result, Tool tool) {
        if (result.structuredContent() != null) {
            return result.structuredContent();
        }
        List<Content> content = result.content() == null ? List.of() : result.content();
        boolean allText = content.stream().allMatch(c -> c instanceof TextContent);
        if (!allText) {
            // Images, resources: the blocks as MCP has them. Converted with the whole result, whose declared
            // element type carries each block's "type"; a bare list would lose it.
            return json.convertValue(result, Map.class).get("content");
        }
        String text = text(content);
        String trimmed = text.strip();
        if ((tool == null || tool.outputSchema() == null)
                && (trimmed.startsWith("{") && trimmed.endsWith("}") || trimmed.startsWith("[") && trimmed.endsWith("]"))) {
            try {
                return json.readValue(trimmed, Object.class);
            } catch (IOException | RuntimeException notJson) {
                return text;
            }
        }
        return text;
    }

    private static String text(List<Content> content) {
        StringBuilder text = new StringBuilder();
        for (Content block : content == null ? List.<Content>of() : content) {
            if (block instanceof TextContent t) {
                if (!text.isEmpty()) {
                    text.append('\n');
                }
                text.append(t.text());
            }
        }
        return text.toString();
    }

    static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "...";
    }
}
