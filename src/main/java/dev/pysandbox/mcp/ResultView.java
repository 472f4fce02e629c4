package dev.pysandbox.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

/**
 * The result view a person can open beside a call of {@code execute_code} or {@code run_python}: an MCP App
 * (SEP-1865, the {@code io.modelcontextprotocol/ui} extension) that shows the code, its status and time, its output,
 * its charts, the files it wrote (a CSV as a sortable table) and, in code mode, the tool calls it made.
 *
 * <p>The page ({@code result-view.html}) is self-contained and reaches no origin: its CSP, in the page and in the
 * resource's {@code _meta.ui.csp}, declares none. It renders only what the host hands it from the call's answer, as
 * text and {@code data:} images, never as markup.
 */
final class ResultView {
    /** Where the tools point hosts to, and where the page is read. */
    static final String URI = "ui://python-sandbox/result.html";
    /** MCP Apps' type for a view's HTML. */
    static final String MIME_TYPE = "text/html;profile=mcp-app";
    /** The extension's id, as servers declare it in their capabilities. */
    static final String EXTENSION = "io.modelcontextprotocol/ui";

    private static final String HTML = page();
    /** No connect, resource, frame or base origins: everything the page needs is inline. */
    private static final Map<String, Object> UI = Map.of(
            "csp", Map.of("connectDomains", List.of(), "resourceDomains", List.of(), "frameDomains", List.of(),
                    "baseUriDomains", List.of()),
            "prefersBorder", true);

    private ResultView() {
    }

    /** The {@code _meta} a tool carries to link the view: the nested key, and the flat one older hosts read. */
    static Map<String, Object> toolMeta() {
        return Map.of("ui", Map.of("resourceUri", URI), "ui/resourceUri", URI);
    }

    /** What the server's capabilities say of the extension: it serves views in HTML. */
    static Map<String, Map<String, Object>> capability() {
        return Map.of(EXTENSION, Map.of("mimeTypes", List.of(MIME_TYPE)));
    }

    /** The view as {@code resources/list} names it. */
    static Resource resource() {
        return Resource.builder()
                .uri(URI)
                .name("result-view")
                .title("Python sandbox result")
                .description("Shows a call of execute_code or run_python: its code, status, output, charts, files and"
                        + " tool calls.")
                .mimeType(MIME_TYPE)
                .meta(Map.of("ui", UI))
                .build();
    }

    /** The view as {@code resources/read} gives it. */
    static ReadResourceResult read() {
        return new ReadResourceResult(List.of(new TextResourceContents(URI, MIME_TYPE, HTML, Map.of("ui", UI))));
    }

    /** The page's HTML. */
    static String html() {
        return HTML;
    }

    private static String page() {
        try (InputStream in = ResultView.class.getResourceAsStream("result-view.html")) {
            if (in == null) {
                throw new IllegalStateException("result-view.html is missing from the server's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
