package dev.pysandbox.bridge;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.execution.ToolErrorKind;

/**
 * The downstream tools as code finds them: {@code context.tools.list}, {@code .search} and {@code .describe},
 * the names {@code validate_code} checks literal tool names against, each server's callable tools for
 * {@code execute_code}'s description, and their reach for its hints. It shows only what the
 * {@link ToolSafelist} lets the asking call use, and returns data: the words shown to a model are the MCP
 * edge's to write.
 */
public final class ToolCatalog {
    /** How long validate_code waits for servers still starting. */
    private static final Duration NAMES_WAIT = Duration.ofSeconds(10);

    /** A downstream server as the catalog reads it. */
    interface Server {
        ServerEntry entry();

        /** The server's tools as last discovered, by name; empty until it has started. */
        Map<String, Tool> tools();

        /** Why the server is not available; null when it is. */
        String problem();

        /** Starts the server if it is not running, waiting at most {@code wait} for it to be ready. */
        Object ready(Duration wait) throws ToolFailure;
    }

    /** One server as {@code execute_code}'s description names it: its state and its callable tools, sorted. */
    public record ServerTools(String name, State state, List<String> callable) {
        public ServerTools {
            callable = List.copyOf(callable);
        }
    }

    /** Where a server stands: refused or failed, not started yet, or up with its tools known. */
    public enum State { UNAVAILABLE, STARTING, READY }

    private final Map<String, ? extends Server> servers;
    private final ToolSafelist safelist;
    private final McpJsonMapper json;

    /** @param servers by name, in the servers file's order */
    ToolCatalog(Map<String, ? extends Server> servers, ToolSafelist safelist, McpJsonMapper json) {
        this.servers = servers;
        this.safelist = safelist;
        this.json = json;
    }

    /** The tool {@code name} of {@code server}; a {@code not_allowed} when the server offers none by that name. */
    static Tool offered(Server server, String name) throws ToolFailure {
        Tool tool = server.tools().get(name);
        if (tool == null) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "server '" + server.entry().name() + "' has no tool '"
                    + name + "'");
        }
        return tool;
    }

    private List<String> callable(Server server, ToolPatterns narrowing) {
        return safelist.callable(server.entry(), server.tools().keySet(), narrowing);
    }

    /** {@code context.tools.list(server)}: the callable tools, of one server or all, with a line each. */
    List<Map<String, Object>> list(String serverName, ToolPatterns narrowing, Duration remaining) throws ToolFailure {
        List<Server> which;
        if (serverName.isEmpty()) {
            which = List.copyOf(servers.values());
        } else if (servers.containsKey(serverName)) {
            which = List.of(servers.get(serverName));
        } else {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "no server '" + serverName + "' is configured; servers: "
                    + safelist.serverNames());
        }
        long deadline = System.nanoTime() + remaining.toNanos();
        List<Map<String, Object>> listed = new ArrayList<>();
        for (Server server : which) {
            try {
                server.ready(CodeMode.left(deadline));
            } catch (ToolFailure unavailable) {
                continue; // listed once it is up; a call to it says why it is not
            }
            for (String name : callable(server, narrowing)) {
                listed.add(summary(server, server.tools().get(name)));
            }
        }
        return listed;
    }

    /**
     * {@code context.tools.search(words)}: at most {@code limit} callable tools, ranked by the words in their
     * names (two points a word) and descriptions (one).
     */
    List<Map<String, Object>> search(String words, int limit, ToolPatterns narrowing) {
        List<String> terms = List.of(words.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).stream()
                .filter(term -> !term.isEmpty()).toList();
        record Hit(Map<String, Object> summary, int score) {
        }
        List<Hit> hits = new ArrayList<>();
        for (Server server : servers.values()) {
            for (String name : callable(server, narrowing)) {
                Tool tool = server.tools().get(name);
                String id = (server.entry().name() + "." + name).toLowerCase(Locale.ROOT);
                String text = (tool.title() + " " + tool.description()).toLowerCase(Locale.ROOT);
                int score = 0;
                for (String term : terms) {
                    score += (id.contains(term) ? 2 : 0) + (text.contains(term) ? 1 : 0);
                }
                if (score > 0 || terms.isEmpty()) {
                    hits.add(new Hit(summary(server, tool), score));
                }
            }
        }
        return hits.stream().sorted(Comparator.comparingInt(Hit::score).reversed()).limit(limit).map(Hit::summary).toList();
    }

    /** {@code context.tools.describe("server.tool")}: the tool's description and schemas. */
    Map<String, Object> describe(String id, ToolPatterns narrowing, Duration remaining) throws ToolFailure {
        Server server = servers.get(safelist.permit(id, narrowing).name());
        server.ready(remaining);
        Tool tool = offered(server, id.substring(id.indexOf('.') + 1));
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("tool", id);
        described.put("title", tool.title());
        described.put("description", tool.description());
        described.put("input_schema", tool.inputSchema());
        described.put("output_schema", tool.outputSchema());
        described.put("annotations", tool.annotations() == null ? null : json.convertValue(tool.annotations(), Map.class));
        return described;
    }

    private static Map<String, Object> summary(Server server, Tool tool) {
        String description = tool.description() == null ? "" : tool.description().strip();
        int newline = description.indexOf('\n');
        String first = newline < 0 ? description : description.substring(0, newline);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("tool", server.entry().name() + "." + tool.name());
        summary.put("title", tool.title());
        summary.put("summary", ToolResultShape.cut(first, 120));
        return summary;
    }

    /**
     * The allowed and the known tool names ({@code server.tool}), for validate_code's checks of literal names.
     * Servers still starting get a few seconds: a name checked before its server is up would read as unknown.
     */
    Map<String, List<String>> names(ToolPatterns narrowing) {
        List<String> allowed = new ArrayList<>();
        List<String> known = new ArrayList<>();
        for (Server server : servers.values()) {
            try {
                server.ready(NAMES_WAIT);
            } catch (ToolFailure unavailable) {
                // its tools are unknown for now
            }
            for (String name : server.tools().keySet()) {
                known.add(server.entry().name() + "." + name);
                if (safelist.callable(server.entry(), name, narrowing)) {
                    allowed.add(server.entry().name() + "." + name);
                }
            }
        }
        return Map.of("allowed", allowed, "known", known);
    }

    /** Every server, in the file's order, with its state and the tools the operator lets code call. */
    List<ServerTools> servers() {
        List<ServerTools> listed = new ArrayList<>();
        for (Server server : servers.values()) {
            State state = server.problem() != null ? State.UNAVAILABLE
                    : server.tools().isEmpty() ? State.STARTING : State.READY;
            listed.add(new ServerTools(server.entry().name(), state, callable(server, ToolPatterns.narrowing(null))));
        }
        return listed;
    }

    /** What code may do through the tools the operator lets it call (see {@link ToolSafelist#reach}). */
    ToolSafelist.Reach reach() {
        List<Tool> callable = new ArrayList<>();
        for (Server server : servers.values()) {
            for (String name : callable(server, ToolPatterns.narrowing(null))) {
                callable.add(server.tools().get(name));
            }
        }
        return ToolSafelist.reach(callable);
    }
}
