package dev.pysandbox.bridge;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.execution.ToolErrorKind;

/**
 * Which downstream tools code may call: the one policy every call, listing and description applies. A tool
 * is callable when the operator allowed it (see {@link ToolPatterns#allowed}), it is not one of the tools
 * that run code (no recursion, on any server) and the call's own {@code allowed_tools} covers it (a call can
 * only narrow the operator's list). Decided in the supervisor on every request, never in the guest: the
 * prelude's checks only make mistakes fail early, because a rule enforced inside the sandbox can be undone
 * by the code it is meant to bind (SECURITY.md).
 */
public final class ToolSafelist {
    /** Tools that run code: calling one from code mode would be recursion, on any server. */
    public static final Set<String> CODE_TOOLS = Set.of("execute_code", "run_python", "validate_code");

    private final Map<String, ServerEntry> servers = new LinkedHashMap<>();
    private final ToolPatterns globalAllow;
    private final ToolPatterns globalDeny;

    /**
     * @param allow   {@code code-mode.allow}: {@code server.tool} globs allowed on top of each server's own
     * @param deny    {@code code-mode.deny}: {@code server.tool} globs refused whatever else allows them
     * @param servers the servers file's entries, in its order; a disabled one is not configured
     */
    ToolSafelist(List<String> allow, List<String> deny, List<ServerEntry> servers) {
        this.globalAllow = ToolPatterns.of(allow);
        this.globalDeny = ToolPatterns.of(deny);
        servers.stream().filter(server -> !server.disabled()).forEach(server -> this.servers.put(server.name(), server));
    }

    /** The configured servers' names, in the file's order, as refusals list them. */
    String serverNames() {
        return String.join(", ", servers.keySet());
    }

    /**
     * The server of {@code id} ({@code server.tool}) when this call may use that tool; a {@code not_allowed}
     * that says which rule refused it otherwise. Whether the server offers the tool is the catalogue's
     * question: it is only known once the server is up.
     */
    ServerEntry permit(String id, ToolPatterns narrowing) throws ToolFailure {
        int dot = id.indexOf('.');
        if (dot <= 0 || dot == id.length() - 1) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "tools are named 'server.tool'; servers: " + serverNames());
        }
        String name = id.substring(dot + 1);
        if (CODE_TOOLS.contains(name)) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "'" + name + "' runs code: code mode never calls a"
                    + " code-execution tool, on any server (no recursion)");
        }
        ServerEntry server = servers.get(id.substring(0, dot));
        if (server == null) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "no server '" + id.substring(0, dot) + "' is configured;"
                    + " servers: " + serverNames());
        }
        if (!ToolPatterns.allowed(server, name, globalAllow, globalDeny)) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "not on the operator's allow-list");
        }
        if (!narrowing.matches(id)) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "not in this call's allowed_tools");
        }
        return server;
    }

    /** Whether a call narrowed by {@code narrowing} may use {@code server}'s tool {@code name}. */
    boolean callable(ServerEntry server, String name, ToolPatterns narrowing) {
        return !CODE_TOOLS.contains(name) && ToolPatterns.allowed(server, name, globalAllow, globalDeny)
                && narrowing.matches(server.name() + "." + name);
    }

    /** Of {@code names}, offered by {@code server}, the ones a call narrowed by {@code narrowing} may use, sorted. */
    List<String> callable(ServerEntry server, Collection<String> names, ToolPatterns narrowing) {
        return names.stream().filter(name -> callable(server, name, narrowing)).sorted().toList();
    }

    /**
     * How code may affect the world through {@code callable}, from the tools' own annotations: hints the
     * servers give, read the cautious way (a missing hint means "may"). With no callable tool, code reaches
     * nothing outside.
     */
    static Reach reach(Collection<Tool> callable) {
        boolean readOnly = true;
        boolean destructive = false;
        boolean openWorld = false;
        for (Tool tool : callable) {
            var hints = tool.annotations();
            readOnly &= hints != null && Boolean.TRUE.equals(hints.readOnlyHint());
            destructive |= hints == null || !Boolean.TRUE.equals(hints.readOnlyHint())
                    && !Boolean.FALSE.equals(hints.destructiveHint());
            openWorld |= hints == null || !Boolean.FALSE.equals(hints.openWorldHint());
        }
        return new Reach(readOnly, destructive, openWorld);
    }

    /** What code may do to the world through the callable tools, as MCP's tool hints name it. */
    public record Reach(boolean readOnly, boolean destructive, boolean openWorld) {
    }
}
