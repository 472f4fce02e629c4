package dev.pysandbox.mcp;

import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema;

import dev.pysandbox.auth.Scope;
import dev.pysandbox.bridge.CodeMode;
import dev.pysandbox.bridge.ToolSafelist;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ChartImage;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.OutputFile;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.files.ScratchSpace;
import dev.pysandbox.files.TimeZones;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;
import dev.pysandbox.worker.ImportPolicy;

/**
 * {@code execute_code}: validate, run in the sandbox, answer with the result as structured content and as
 * JSON text. Every answer has the same shape; input the sandbox refuses comes back as {@code setup_error}.
 */
final class ExecuteCodeTool {
    static final String TITLE = "Execute Python or JavaScript code";
    static final String NAME = "execute_code";

    /** In a tool call's {@code _meta}: how deep in code mode the caller runs; code mode refuses a nested call. */
    static final String DEPTH_META = "dev.pysandbox/depth";

    private final CodeRunner runner;
    private final ServerConfig config;
    private final CodeMode codeMode;

    ExecuteCodeTool(CodeRunner runner, ServerConfig config, CodeMode codeMode) {
        this.runner = runner;
        this.config = config;
        this.codeMode = codeMode;
    }

    /**
     * The tool as clients see it. Its description names the timeouts and every module code may import, the
     * installed packages among them, so an agent need not find out by failing.
     *
     * @param installed the top-level modules of the operator's package folder now
     */
    Tool tool(McpJsonMapper json, SortedSet<String> installed) {
        Map<String, String> limits = Map.of(
                "max_timeout", Long.toString(config.maxTimeout().toSeconds()),
                "default_timeout", Long.toString(config.defaultTimeout().toSeconds()),
                "session_idle", config.sessions().idleTimeout().toSeconds() + " s",
                "home", ScratchSpace.HOME.toString(),
                "max_tool_calls", Integer.toString(codeMode.maxToolCalls()),
                "max_tool_calls_limit", Integer.toString(codeMode.maxToolCallsLimit()));
        return Tool.builder()
                .name(NAME)
                .title(TITLE)
                .annotations(annotations())
                .meta(ResultView.toolMeta())
                .description(describe(installed))
                .inputSchema(json, ToolSchemas.load("execute_code.input.json", limits))
                .outputSchema(json, ToolSchemas.load("execute_code.output.json", Map.of()))
                .build();
    }

    /**
     * Honest hints: without code mode the code reaches nothing outside its sandbox; with it, the code may do
     * whatever the callable tools may (see {@link CodeMode#reach()}).
     */
    private McpSchema.ToolAnnotations annotations() {
        ToolSafelist.Reach reach = codeMode.reach();
        return new McpSchema.ToolAnnotations(TITLE, reach.readOnly(), reach.destructive(),
                false, reach.openWorld(), null);
    }

    /** What {@code execute_code} tells agents: the timeouts, every module code may import, what cannot run. */
    private String describe(SortedSet<String> installed) {
        ImportPolicy imports = config.imports();
        SortedSet<String> packages = new TreeSet<>(installed);
        packages.removeIf(module -> !imports.allows(module));
        SortedSet<String> others = new TreeSet<>(imports.offered());
        others.removeAll(packages);
        String modules = imports.unrestrictedImports()
                ? "Code may import any module of the standard library"
                : "Code may import these modules: " + String.join(", ", others);
        return "Runs Python 3.12 code (GraalPy) in an isolated sandbox with no network, processes or host access,"
                + " and returns stdout, stderr, exit_code, status and the value of a `result` variable."
                + " Timeout: " + config.defaultTimeout().toSeconds() + " s unless `timeout` says otherwise, at most "
                + config.maxTimeout().toSeconds() + " s. Files: the working directory " + ScratchSpace.HOME
                + " and /tmp are private scratch space in memory (at most " + megabytes(config.fileLimits().maxBytes())
                + " and " + config.fileLimits().maxCount() + " files; gone after the call, or kept for the session);"
                + " `files` places input files there, and files the code writes in the working directory come back"
                + " in the result's `files`. " + modules
                + (packages.isEmpty() ? "; no third-party packages are installed" : "; installed packages: "
                        + String.join(", ", packages))
                + (config.autoInstall() ? ". A well-known package that is allowed but not installed yet is installed on"
                        + " its first import, which fails meanwhile with 'retry in a few seconds'" : "")
                + (imports.allows("zoneinfo") && TimeZones.hostDatabase().isEmpty() && !installed.contains("tzdata")
                        ? ". zoneinfo has no time zones here: the host has no time zone database and tzdata is not"
                        + " installed" : "")
                + ". Starting threads or processes raises an error; asyncio runs coroutines, without network."
                + " Packages with native code (numpy, pandas, pydantic) cannot run here."
                + " Pass session_id to keep variables and imports between calls; inspect_session shows what a session"
                + " holds. " + JAVASCRIPT + " " + CodeModeDescription.of(codeMode);
    }

    /** What JavaScript code finds here, for the description: Node's flavour where it is pure computation. */
    static final String JAVASCRIPT = "language \"javascript\" (or \"js\") runs ECMAScript 2024 on GraalJS in the same"
            + " sandbox: console.log/info/debug to stdout and console.error/warn to stderr, printed as Node prints them;"
            + " promises, top-level await and setTimeout/setInterval finish before the answer; an uncaught error is an"
            + " execution_error with its stack on stderr; set `result` to return a value; context.inputs as in Python."
            + " No require, import, process.env, fetch or workers (each throws saying so). Files: the global `files`"
            + " (read, readBytes, write, append, list, exists, stat, remove, mkdir) reaches the same scratch space."
            + " A session keeps the language of its first call, and its top-level const/let, as in Node's REPL,"
            + " cannot be declared twice.";

    private static String megabytes(long bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MB" : bytes + " bytes";
    }

    ToolAnswer call(Caller caller, CallToolRequest request) {
        CallArguments arguments = new CallArguments(request.arguments());
        ExecutionResult result = execute(arguments, nested(request), caller, request.progressToken());
        return ToolAnswer.of(answer(result), result, namedLanguage(arguments));
    }

    /** The answer to a call: the result as JSON text and as structured content, and each file as a resource. */
    static CallToolResult answer(ExecutionResult result) {
        CallToolResult.Builder answer = CallToolResult.builder()
                .addTextContent(text(result))
                .structuredContent(AnswerJson.object(result))
                .isError(result.status() == Status.SETUP_ERROR);
        images(answer, result);
        for (OutputFile file : result.files()) {
            answer.addContent(embedded(file));
        }
        return answer.build();
    }

    /** The figures the code drew, each an image block after the text, so that the model sees them. */
    static void images(CallToolResult.Builder answer, ExecutionResult result) {
        for (ChartImage image : result.images()) {
            answer.addContent(new ImageContent(null, image.base64(), image.mimeType()));
        }
    }

    /**
     * The answer's text block: the result as JSON, whole while that is small. A larger one leaves out the files'
     * contents, which the answer carries in {@code structuredContent} and as resources, so that no file is sent
     * three times (see {@link AnswerBudget#largestAnswerBytes}).
     */
    static String text(ExecutionResult result) {
        String json = AnswerJson.text(result);
        if (result.files().isEmpty() || json.getBytes(StandardCharsets.UTF_8).length <= AnswerBudget.TEXT_IN_FULL_BYTES) {
            return json;
        }
        return AnswerJson.text(result.withoutFileContents());
    }

    /**
     * A written file as an MCP embedded resource, for clients that show resources rather than read the JSON.
     * Its URI names the sandbox, not the client's disk.
     */
    static EmbeddedResource embedded(OutputFile file) {
        String uri = "sandbox://" + ScratchSpace.HOME + "/" + file.path();
        String mimeType = URLConnection.guessContentTypeFromName(file.path());
        ResourceContents contents = file.text() != null
                ? new TextResourceContents(uri, mimeType == null ? "text/plain" : mimeType, file.text())
                : new BlobResourceContents(uri, mimeType == null ? "application/octet-stream" : mimeType, file.base64());
        return new EmbeddedResource(null, contents);
    }

    /** Whether the call came from another code mode (its {@code _meta} says so): then it gets no tools. */
    private static boolean nested(CallToolRequest request) {
        Object depth = request.meta() == null ? null : request.meta().get(DEPTH_META);
        return depth instanceof Number n && n.doubleValue() >= 1;
    }

    ExecutionResult execute(CallArguments arguments, boolean nested, Caller caller, Object progressToken) {
        ExecutionRequest request;
        try {
            request = toRequest(arguments, nested, caller);
        } catch (InvalidArgument e) {
            return ExecutionResult.setupError(e.getMessage());
        }
        return runner.run(request, caller, progressToken);
    }

    private ExecutionRequest toRequest(CallArguments arguments, boolean nested, Caller caller) throws InvalidArgument {
        Language language = language(arguments);
        String code = arguments.requiredString("code");
        runner.checkSize(code);
        int timeout = arguments.optionalInt("timeout", 1, (int) config.maxTimeout().toSeconds(),
                (int) config.defaultTimeout().toSeconds());
        String sessionId = arguments.optionalString("session_id");
        if (sessionId != null && (sessionId.isBlank() || sessionId.length() > 128)) {
            throw new InvalidArgument("Argument 'session_id' must be 1 to 128 characters.");
        }
        return new ExecutionRequest(language, code, arguments.optionalString("stdin"), Duration.ofSeconds(timeout),
                sessionId == null ? null : caller.sessionKey(sessionId),
                "<string>", FilesArgument.parse(arguments.raw("files"), config.fileLimits()), null,
                arguments.optionalObjectJson("inputs", codeMode.maxInputsBytes()), grant(arguments, nested, caller));
    }

    /** The language the call names, for its metrics; null when it names none the sandbox runs. */
    static Language namedLanguage(CallArguments arguments) {
        return arguments.raw("language") instanceof String name ? Language.named(name).orElse(null) : null;
    }

    /** The call's {@code language}: python, or javascript (js), in any case. */
    static Language language(CallArguments arguments) throws InvalidArgument {
        String named = arguments.requiredString("language");
        return Language.named(named).orElseThrow(() -> new InvalidArgument("Unsupported language '" + named
                + "': this sandbox runs 'python' and 'javascript' (also 'js')."));
    }

    /**
     * The call's share of code mode: the operator's limits, narrowed by what the call asks, and none for a caller
     * whose token lacks {@link Scope#TOOLS}.
     */
    private ToolGrant grant(CallArguments arguments, boolean nested, Caller caller) throws InvalidArgument {
        int maxCalls = arguments.optionalInt("max_tool_calls", 0, codeMode.maxToolCallsLimit(), codeMode.maxToolCalls());
        ToolGrant.Access access = nested ? ToolGrant.Access.NOT_FOR_THIS_CALL
                : caller.scopes().contains(Scope.TOOLS) ? ToolGrant.Access.GRANTED : ToolGrant.Access.SCOPE_MISSING;
        return new ToolGrant(access, arguments.optionalStrings("allowed_tools"), maxCalls);
    }
}
