package dev.pysandbox.bridge;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
 * supervisor, on every request: the allow-list ({@link ToolSafelist}: the operator's, which a call can only
 * narrow, and our own tools never), parameters that are a JSON object within limits and match the tool's
 * schema, a timeout that never outlives the execution. The prelude's checks in the guest only make mistakes
 * fail early: they run in the guest's interpreter, where code can get round them (SECURITY.md, <i>Policy
 * layers in Python</i> and <i>Code mode, enforced in the server</i>). This class brokers the calls; the
 * servers' lifecycle is {@link DownstreamServers}', what code can find is {@link ToolCatalog}'s.
 */
public final class CodeMode implements ToolBroker, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CodeMode.class);

    private final CodeModeSettings settings;
    private final String offReason;
    private final ToolSafelist safelist;
    private final DownstreamServers servers;
    private final ToolCatalog catalog;
    private final McpJsonMapper json = McpJsonDefaults.getMapper();
    private final ToolResultShape shape = new ToolResultShape(json);
    private final JsonMapper paramsParser;

    private CodeMode(CodeModeSettings settings, String offReason, List<ServerEntry> entries, int depth,
            String selfName, String version) {
        this.settings = settings;
        this.offReason = offReason;
        this.safelist = new ToolSafelist(settings.allow(), settings.deny(), entries);
        this.servers = new DownstreamServers(settings, entries, safelist, json, depth, selfName, version);
        this.catalog = new ToolCatalog(servers.byName(), safelist, json);
        // Depth and string limits before anything else looks at the text: it comes from guest code.
        this.paramsParser = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(64).maxStringLength(settings.maxParamBytes()).build()).build()).build();
    }

    /** Code mode off; every tool request is answered {@code not_configured} with this reason. */
    public static CodeMode off(CodeModeSettings settings, String reason) {
        return new CodeMode(settings, reason, List.of(), 0, null, null);
    }

    /**
     * Code mode over the servers of the operator's file (disabled ones left out).
     *
     * @param depth    how deep in code mode this server runs (0 unless a code mode launched it)
     * @param selfName our serverInfo name: a downstream server reporting it is refused (recursion)
     */
    public static CodeMode of(CodeModeSettings settings, List<ServerEntry> entries, int depth, String selfName,
            String version) {
        return new CodeMode(settings, null, entries, depth, selfName, version);
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
        servers.start();
    }

    /** Runs {@code listener} whenever the callable tools change (a server started, refreshed or lost its tools). */
    public void onChange(Runnable listener) {
        servers.onChange(listener);
    }

    @Override
    public ToolCalls open(ToolGrant grant) {
        if (!enabled()) {
            return ToolCalls.refusing(ToolErrorKind.NOT_CONFIGURED, "code mode is off: " + offReason);
        }
        switch (grant.access()) {
            case GRANTED -> { }
            case NOT_FOR_THIS_CALL -> {
                return ToolCalls.refusing(ToolErrorKind.NOT_CONFIGURED, "code mode is not available to this call (it"
                        + " came from another code mode, or from a tool other than execute_code)");
            }
            case SCOPE_MISSING -> {
                return ToolCalls.refusing(ToolErrorKind.NOT_ALLOWED, "the caller's token does not carry the scope"
                        + " sandbox:tools, which calling the operator's tools needs");
            }
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
        Downstream server = servers.byName().get(safelist.permit(id, narrowing).name());
        String name = id.substring(id.indexOf('.') + 1);
        Map<String, Object> arguments = arguments(params);
        var client = server.ready(left(deadline));
        Tool tool = ToolCatalog.offered(server, name);
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

    /** The time left until {@code deadline} (a {@link System#nanoTime} value), zero once it has passed. */
    static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
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

    /** {@code context.tools.list(server)}: see {@link ToolCatalog#list}. */
    List<Map<String, Object>> list(String serverName, ToolPatterns narrowing, Duration remaining) throws ToolFailure {
        return catalog.list(serverName, narrowing, remaining);
    }

    /** {@code context.tools.search(words, limit=5)}: the limit from the parameters, then {@link ToolCatalog#search}. */
    List<Map<String, Object>> search(String words, String params, ToolPatterns narrowing) throws ToolFailure {
        Object limitValue = arguments(params).get("limit");
        int limit = limitValue instanceof Number n ? Math.clamp(n.intValue(), 1, 50) : 5;
        return catalog.search(words, limit, narrowing);
    }

    /** {@code context.tools.describe("server.tool")}: see {@link ToolCatalog#describe}. */
    Map<String, Object> describe(String id, ToolPatterns narrowing, Duration remaining) throws ToolFailure {
        return catalog.describe(id, narrowing, remaining);
    }

    /** The allowed and known tool names as JSON, for validate_code's checks (see {@link ToolCatalog#names}). */
    String catalog(ToolPatterns narrowing) {
        return paramsParser.writeValueAsString(catalog.names(narrowing));
    }

    /**
     * Every downstream server with its state and callable tools, for {@code execute_code}'s description. The
     * servers' own descriptions are left out: they are text the operator did not write.
     */
    public List<ToolCatalog.ServerTools> servers() {
        return catalog.servers();
    }

    /** How {@code execute_code} may affect the world now that code can call the callable tools. */
    public ToolSafelist.Reach reach() {
        return catalog.reach();
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

    /** Stops every downstream server and what it started (see {@link DownstreamServers#close}). */
    @Override
    public void close() {
        servers.close();
    }
}
