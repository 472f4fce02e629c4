package dev.pysandbox.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

/** The result view is an MCP App that reaches no origin and shows only what its host hands it, as text. */
class ResultViewTest {
    @Test
    void theViewIsServedAsAnMcpAppThatDeclaresNoOrigin() {
        TextResourceContents page = (TextResourceContents) ResultView.read().contents().get(0);
        assertEquals("ui://python-sandbox/result.html", page.uri());
        assertEquals("text/html;profile=mcp-app", page.mimeType());
        @SuppressWarnings("unchecked")
        Map<String, Object> csp = (Map<String, Object>) ((Map<String, Object>) page.meta().get("ui")).get("csp");
        for (String directive : List.of("connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")) {
            assertEquals(List.of(), csp.get(directive), directive);
        }
        assertEquals(page.meta(), ResultView.resource().meta());
    }

    @Test
    void thePageLoadsNothingFromElsewhereAndWritesNoMarkupFromTheAnswer() {
        String html = ResultView.html();
        assertFalse(Pattern.compile("(src|href)\\s*=\\s*[\"']?(https?:)?//").matcher(html).find(),
                "an external src or href");
        assertFalse(html.contains("innerHTML") || html.contains("outerHTML") || html.contains("insertAdjacentHTML")
                || html.contains("document.write"), "the page writes markup");
        assertFalse(html.contains("eval(") || html.contains("new Function"), "the page evaluates code");
        assertTrue(html.contains("default-src 'none'"), "its own CSP");
    }

    @Test
    void theCodeToolsLinkTheViewUnderBothKeysHostsRead() {
        Map<String, Object> meta = ResultView.toolMeta();
        assertEquals(Map.of("resourceUri", ResultView.URI), meta.get("ui"));
        assertEquals(ResultView.URI, meta.get("ui/resourceUri"));
        assertTrue(ResultView.capability().containsKey("io.modelcontextprotocol/ui"));
    }
}
