package dev.pysandbox.bridge;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

import dev.pysandbox.config.CodeModeSettings;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolGrant;

/**
 * Code mode: guest Python calling the operator's other MCP tools. Every rule is decided here, in the
 * supervisor, on every request: the allow-list (the operator's, which a call can only narrow), our own tools
 * never (no recursion), parameters that are a JSON object within limits and match the tool's schema, a
 * timeout that never outlives the execution. The prelude's checks in the guest only make mistakes fail
 * early; peers that enforced such rules inside the sandbox were broken (shared/notes/code-mode.md).
 */
public final class CodeMode implements ToolBroker, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CodeMode.class);
    /** Tools that run code: calling one from code mode would be recursion, on any server. */
    public static final Set<String> CODE_TOOLS = Set.of("execute_code", "run_python", "validate_code");
    private static final int CATALOG_CHARS = 1_500;
    private static final int NAME_CHARS = 64;
    private static final Duration CATALOG_WAIT = Duration.ofSeconds(10);

    private final CodeModeSettings settings;
    private final String offReason;
    private final Map<String, Downstream> servers = new LinkedHashMap<>();
    private final ToolPatterns globalAllow;
    private final ToolPatterns globalDeny;
    private final McpJsonMapper json = McpJsonDefaults.getMapper();
    private final ToolResultShape shape = new ToolResultShape(json);
    private final JsonMapper paramsParser;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    private CodeMode(CodeModeSettings settings, String offReason) {
        this.settings = settings;
        this.offReason = offReason;
        this.globalAllow = ToolPatterns.of(settings.allow());
        this.globalDeny = ToolPatterns.of(settings.deny());
        // Depth and string limits before anything else looks at the text: it comes from guest code.
        this.paramsParser = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(64).maxStringLength(settings.maxParamBytes()).build()).build()).build();
    }

    /** Code mode off; every tool request is answered {@code not_configured} with this reason. */
    public static CodeMode off(CodeModeSettings settings, String reason) {
        return new CodeMode(settings, reason);
    }

    /**
     * Code mode over the servers of the operator's file (disabled ones left out).
     *
     * @param depth    how deep in code mode this server runs (0 unless a code mode launched it)
     * @param selfName our serverInfo name: a downstream server reporting it is refused (recursion)
     */
    public static CodeMode of(CodeModeSettings settings, List<ServerEntry> entries, int depth, String selfName,
            String version) {
        CodeMode codeMode = new CodeMode(settings, null);
        Duration longestCall = settings.toolTimeout();
        for (ServerEntry entry : entries) {
            if (entry.timeout() != null && entry.timeout().compareTo(longestCall) > 0) {
                longestCall = entry.timeout();
            }
        }
        for (ServerEntry entry : entries) {
            if (!entry.disabled()) {
                codeMode.servers.put(entry.name(), new Downstream(entry, codeMode.json, settings.startupTimeout(),
                        longestCall.plusSeconds(30), settings.maxConcurrentPerServer(), depth, selfName, version,
                        server -> codeMode.toolsChanged(server)));
            }
        }
        return codeMode;
    }

    public boolean enabled() {
        return offReason == null;
    }

    /** Starts every downstream server in the background; the log lists each one's callable tools. */
    public void start() {
        if (!enabled()) {
            log.info("code mode is off: {}", offReason);
            return;
        }
        log.info("code mode: starting {} downstream server(s): {}", servers.size(), String.join(", ", servers.keySet()));
        servers.values().forEach(Downstream::start);
    }

    /** Runs {@code listener} whenever the callable tools change (a server started, refreshed or lost its tools). */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void toolsChanged(Downstream server) {
        List<String> callable = callable(server, ToolPatterns.narrowing(null));
        if (server.problem() != null) {
            // reported where it happened
        } else if (callable.isEmpty()) {
            log.warn("code mode: no tool of server '{}' is callable: give it \"tools\" globs in the servers file"
                    + " or allow some with code-mode.allow (it offers: {})", server.name(),
                    String.join(", ", server.tools().keySet()));
        } else {
            log.info("code mode: server '{}': callable tools: {}", server.name(), String.join(", ", callable));
        }
        listeners.forEach(Runnable::run);
    }

    @Override
    public ToolCalls open(ToolGrant grant) {
        if (!enabled()) {
            return ToolCalls.refusing(ToolErrorKind.NOT_CONFIGURED, "code mode is off: " + offReason);
        }
        if (!grant.enabled()) {
            return ToolCalls.refusing(ToolErrorKind.NOT_CONFIGURED, "code mode is not available to this call (it came from"
                    + " another code mode, or from a tool other than execute_code)");
        }
        return new ExecutionTools(this, grant);
    }

    int maxResultBytes() {
        return settings.maxResultBytes();
    }

    /** A tool call, after every check. */
    Object call(String id, String params, ToolPatterns narrowing, Duration remaining, boolean raw,
            Consumer<CompletableFuture<?>> track) throws ToolFailure {
        long deadline = System.nanoTime() + remaining.toNanos();
        Downstream server = permitted(id, narrowing);
        String name = toolName(id);
        Map<String, Object> arguments = arguments(params);
        var client = server.ready(left(deadline));
        Tool tool = server.tools().get(name);
        if (tool == null) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "server '" + server.name() + "' has no tool '" + name + "'");
        }
        if (settings.validateParams() && tool.inputSchema() != null) {
            ValidationResponse check = McpJsonDefaults.getSchemaValidator().validate(tool.inputSchema(), arguments);
            if (!check.valid()) {
                throw new ToolFailure(ToolErrorKind.INVALID_PARAMS, "the parameters do not match the tool's input"
                        + " schema: " + ToolResultShape.cut(String.valueOf(check.errorMessage()), 1_000));
            }
        }
        Duration timeout = server.entry().timeout() != null ? server.entry().timeout() : settings.toolTimeout();
        if (timeout.compareTo(left(deadline)) > 0) {
            timeout = left(deadline);
        }
        if (timeout.isZero()) {
            throw new ToolFailure(ToolErrorKind.TIMEOUT, "the execution has no time left for this call");
        }
        return shape.value(server.call(client, name, arguments, timeout, track), tool, raw);
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private static String toolName(String id) {
        return id.substring(id.indexOf('.') + 1);
    }

    /** The server of a tool this execution may call; a clear not_allowed otherwise. */
    private Downstream permitted(String id, ToolPatterns narrowing) throws ToolFailure {
        int dot = id.indexOf('.');
        if (dot <= 0 || dot == id.length() - 1) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "tools are named 'server.tool'; servers: "
                    + String.join(", ", servers.keySet()));
        }
        String name = id.substring(dot + 1);
        if (CODE_TOOLS.contains(name)) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "'" + name + "' runs code: code mode never calls a"
                    + " code-execution tool, on any server (no recursion)");
        }
        Downstream server = servers.get(id.substring(0, dot));
        if (server == null) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "no server '" + id.substring(0, dot) + "' is configured;"
                    + " servers: " + String.join(", ", servers.keySet()));
        }
        if (!ToolPatterns.allowed(server.entry(), name, globalAllow, globalDeny)) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "not on the operator's allow-list");
        }
        if (!narrowing.matches(id)) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "not in this call's allowed_tools");
        }
        return server;
    }

    private boolean callable(Downstream server, String name, ToolPatterns narrowing) {
        return !CODE_TOOLS.contains(name) && ToolPatterns.allowed(server.entry(), name, globalAllow, globalDeny)
                && narrowing.matches(server.name() + "." + name);
    }

    private List<String> callable(Downstream server, ToolPatterns narrowing) {
        return server.tools().keySet().stream().filter(name -> callable(server, name, narrowing)).sorted().toList();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> arguments(String params) throws ToolFailure {
        if (params == null || params.isBlank()) {
            return Map.of();
        }
        int bytes = params.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > settings.maxParamBytes()) {
            throw new ToolFailure(ToolErrorKind.INVALID_PARAMS, "the parameters are " + bytes + " bytes of JSON; the"
                    + " limit is " + settings.maxParamBytes() + " (code-mode.max-param-bytes)");
        }
        Object parsed;
        try {
            parsed = paramsParser.readValue(params, Object.class);
        } catch (RuntimeException e) {
            throw new ToolFailure(ToolErrorKind.INVALID_PARAMS, "the parameters are not JSON within the limits"
                    + " (64 levels deep at most)");
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new ToolFailure(ToolErrorKind.INVALID_PARAMS, "the parameters must be a JSON object");
        }
        return (Map<String, Object>) map;
    }

    /** {@code context.tools.list(server)}: the callable tools, of one server or all, with a line each. */
    List<Map<String, Object>> list(String serverName, ToolPatterns narrowing, Duration remaining) throws ToolFailure {
        List<Downstream> which;
        if (serverName.isEmpty()) {
            which = List.copyOf(servers.values());
        } else if (servers.containsKey(serverName)) {
            which = List.of(servers.get(serverName));
        } else {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "no server '" + serverName + "' is configured; servers: "
                    + String.join(", ", servers.keySet()));
        }
        long deadline = System.nanoTime() + remaining.toNanos();
        List<Map<String, Object>> listed = new ArrayList<>();
        for (Downstream server : which) {
            try {
                server.ready(left(deadline));
            } catch (ToolFailure unavailable) {
                continue; // listed once it is up; a call to it says why it is not
            }
            for (String name : callable(server, narrowing)) {
                listed.add(summary(server, server.tools().get(name)));
            }
        }
        return listed;
    }

    /** {@code context.tools.search(words)}: callable tools ranked by the words in their names and descriptions. */
    List<Map<String, Object>> search(String words, String params, ToolPatterns narrowing) throws ToolFailure {
        Object limitValue = arguments(params).get("limit");
        int limit = limitValue instanceof Number n ? Math.clamp(n.intValue(), 1, 50) : 5;
        List<String> terms = List.of(words.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).stream()
                .filter(term -> !term.isEmpty()).toList();
        record Hit(Map<String, Object> summary, int score) {
        }
        List<Hit> hits = new ArrayList<>();
        for (Downstream server : servers.values()) {
            for (String name : callable(server, narrowing)) {
                Tool tool = server.tools().get(name);
                String id = (server.name() + "." + name).toLowerCase(Locale.ROOT);
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
        Downstream server = permitted(id, narrowing);
        server.ready(remaining);
        Tool tool = server.tools().get(toolName(id));
        if (tool == null) {
            throw new ToolFailure(ToolErrorKind.NOT_ALLOWED, "server '" + server.name() + "' has no tool '" + toolName(id) + "'");
        }
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("tool", id);
        described.put("title", tool.title());
        described.put("description", tool.description());
        described.put("input_schema", tool.inputSchema());
        described.put("output_schema", tool.outputSchema());
        described.put("annotations", tool.annotations() == null ? null : json.convertValue(tool.annotations(), Map.class));
        return described;
    }

    private static Map<String, Object> summary(Downstream server, Tool tool) {
        String description = tool.description() == null ? "" : tool.description().strip();
        int newline = description.indexOf('\n');
        String first = newline < 0 ? description : description.substring(0, newline);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("tool", server.name() + "." + tool.name());
        summary.put("title", tool.title());
        summary.put("summary", ToolResultShape.cut(first, 120));
        return summary;
    }

    /**
     * The allowed and known tool names, for validate_code's checks of literal names. Servers still starting
     * get a few seconds: a name checked before its server is up would read as unknown.
     */
    String catalog(ToolPatterns narrowing) {
        List<String> allowed = new ArrayList<>();
        List<String> known = new ArrayList<>();
        for (Downstream server : servers.values()) {
            try {
                server.ready(CATALOG_WAIT);
            } catch (ToolFailure unavailable) {
                // its tools are unknown for now
            }
            for (String name : server.tools().keySet()) {
                known.add(server.name() + "." + name);
                if (callable(server, name, narrowing)) {
                    allowed.add(server.name() + "." + name);
                }
            }
        }
        return paramsParser.writeValueAsString(Map.of("allowed", allowed, "known", known));
    }

    /**
     * What {@code execute_code}'s description says about code mode: how to call tools, the budget, and the
     * callable tools by name. Never the downstream descriptions: they are text the operator did not write
     * (an injection channel), and they would grow the prompt with every server.
     */
    public String describeForAgents() {
        String inputs = "context.inputs holds the `inputs` argument (a dict).";
        if (!enabled()) {
            return inputs;
        }
        StringBuilder text = new StringBuilder()
                .append("Code can call tools of other MCP servers: context.tools.call(\"server.tool\", {...}) returns")
                .append(" the tool's result as Python data (structured JSON when the tool gives it: no json.loads needed)")
                .append(" and raises ToolError (with .kind) on failure; synchronous (no await), no import needed. At most ")
                .append(settings.maxToolCalls()).append(" tool calls per run (max_tool_calls may lower it; allowed_tools")
                .append(" may narrow the tools). Find tools with context.tools.list(), .search(\"words\"),")
                .append(" .describe(\"server.tool\"); context.tools.<server>.<tool>(**params) also works. ").append(inputs);
        StringBuilder catalog = new StringBuilder(" Servers:");
        StringBuilder counts = new StringBuilder(" Servers:");
        for (Downstream server : servers.values()) {
            List<String> names = callable(server, ToolPatterns.narrowing(null));
            String state = server.problem() != null ? "unavailable" : server.tools().isEmpty() ? "starting"
                    : names.size() + " tools";
            catalog.append(' ').append(server.name()).append(" (").append(names.isEmpty() ? state
                    : String.join(", ", names.stream().map(CodeMode::printable).toList())).append(");");
            counts.append(' ').append(server.name()).append(" (").append(state).append(");");
        }
        text.append(catalog.length() <= CATALOG_CHARS ? catalog : counts);
        return text.toString();
    }

    /** A downstream tool name as it may appear in our description: untrusted text, so only a safe alphabet. */
    private static String printable(String name) {
        String safe = name.replaceAll("[^A-Za-z0-9_.\\-]", "_");
        return safe.length() <= NAME_CHARS ? safe : safe.substring(0, NAME_CHARS) + "...";
    }

    /**
     * How {@code execute_code} may affect the world now that code can call these tools, from the callable
     * tools' own annotations (hints the servers give, read the cautious way: a missing hint means "may"):
     * With no callable tool, code reaches nothing outside.
     */
    public Reach reach() {
        boolean readOnly = true;
        boolean destructive = false;
        boolean openWorld = false;
        for (Downstream server : servers.values()) {
            for (String name : callable(server, ToolPatterns.narrowing(null))) {
                var hints = server.tools().get(name).annotations();
                readOnly &= hints != null && Boolean.TRUE.equals(hints.readOnlyHint());
                destructive |= hints == null || !Boolean.TRUE.equals(hints.readOnlyHint())
                        && !Boolean.FALSE.equals(hints.destructiveHint());
                openWorld |= hints == null || !Boolean.FALSE.equals(hints.openWorldHint());
            }
        }
        return new Reach(readOnly, destructive, openWorld);
    }

    /** What code may do to the world through the callable tools, as MCP's tool hints name it. */
    public record Reach(boolean readOnly, boolean destructive, boolean openWorld) {
    }

    public int maxToolCalls() {
        return settings.maxToolCalls();
    }

    public int maxToolCallsLimit() {
        return settings.maxToolCallsLimit();
    }

    public int maxInputsBytes() {
        return settings.maxInputsBytes();
    }

    /**
     * Stops every downstream server and what it started, all at once (a thread each: a parallel stream may run
     * them one after another on a small machine), so the whole takes as long as the slowest, a few seconds at
     * most. Idempotent; no server starts again afterwards.
     */
    @Override
    public void close() {
        List<Thread> closing = servers.values().stream()
                .map(server -> Thread.ofVirtual().name("mcp-close-" + server.name()).start(server::close)).toList();
        boolean interrupted = false;
        for (Thread thread : closing) {
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true; // each close is bounded: finish waiting, then pass the interrupt on
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
