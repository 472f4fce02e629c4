package dev.pysandbox.mcp;

import java.util.List;

import dev.pysandbox.bridge.CodeMode;
import dev.pysandbox.bridge.ToolCatalog.ServerTools;

/**
 * What {@code execute_code}'s description says about code mode: how to call tools, the budget, and the
 * callable tools by name. Never the downstream descriptions: they are text the operator did not write (an
 * injection channel), and they would grow the prompt with every server. Tool names are untrusted text too,
 * so only a safe alphabet of them is shown.
 */
final class CodeModeDescription {
    /** Past this, the servers are listed with their tool counts instead of their tools' names. */
    static final int CATALOG_CHARS = 1_500;
    /** A longer tool name is cut: it is the server's text, in our description. */
    static final int NAME_CHARS = 64;

    private CodeModeDescription() {
    }

    static String of(CodeMode codeMode) {
        return render(codeMode.enabled(), codeMode.maxToolCalls(), codeMode.servers());
    }

    /**
     * @param enabled      whether code mode is on; off, the text only says where the inputs are
     * @param maxToolCalls tool calls per run unless a call asks for fewer
     * @param servers      every downstream server, in the servers file's order
     */
    static String render(boolean enabled, int maxToolCalls, List<ServerTools> servers) {
        String inputs = "context.inputs holds the `inputs` argument (a dict).";
        if (!enabled) {
            return inputs;
        }
        StringBuilder text = new StringBuilder()
                .append("Code can call tools of other MCP servers: context.tools.call(\"server.tool\", {...}) returns")
                .append(" the tool's result as Python data (structured JSON when the tool gives it: no json.loads needed)")
                .append(" and raises ToolError (with .kind) on failure; synchronous (no await), no import needed. At most ")
                .append(maxToolCalls).append(" tool calls per run (max_tool_calls may lower it; allowed_tools")
                .append(" may narrow the tools). Find tools with context.tools.list(), .search(\"words\"),")
                .append(" .describe(\"server.tool\"); context.tools.<server>.<tool>(**params) also works. JavaScript:")
                .append(" the same as promises, await tools.call(\"server.tool\", {...}) or await tools.<server>.<tool>({...}),")
                .append(" rejecting with a ToolError. ").append(inputs);
        StringBuilder catalog = new StringBuilder(" Servers:");
        StringBuilder counts = new StringBuilder(" Servers:");
        for (ServerTools server : servers) {
            List<String> names = server.callable();
            String state = switch (server.state()) {
                case UNAVAILABLE -> "unavailable";
                case STARTING -> "starting";
                case READY -> names.size() + " tools";
            };
            catalog.append(' ').append(server.name()).append(" (").append(names.isEmpty() ? state
                    : String.join(", ", names.stream().map(CodeModeDescription::printable).toList())).append(");");
            counts.append(' ').append(server.name()).append(" (").append(state).append(");");
        }
        text.append(catalog.length() <= CATALOG_CHARS ? catalog : counts);
        return text.toString();
    }

    /** A downstream tool name as it may appear in our description: untrusted text, so only a safe alphabet. */
    static String printable(String name) {
        String safe = name.replaceAll("[^A-Za-z0-9_.\\-]", "_");
        return safe.length() <= NAME_CHARS ? safe : safe.substring(0, NAME_CHARS) + "...";
    }
}
