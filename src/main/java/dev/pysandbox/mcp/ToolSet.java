package dev.pysandbox.mcp;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.SortedSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.bridge.CodeMode;
import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.Notice;
import dev.pysandbox.packages.AutoInstaller;
import dev.pysandbox.packages.PackageFolder;
import dev.pysandbox.supervisor.Sandbox;
import dev.pysandbox.supervisor.WorkerRuntime;

/**
 * The server's tools and what keeps them current, whichever transport serves them: {@code execute_code},
 * {@code run_python} and {@code validate_code} over one {@link CodeRunner}, {@code inspect_session}, and the
 * watches that re-describe {@code execute_code} when packages are installed or code mode finds its tools.
 */
final class ToolSet implements AutoCloseable {
    /** One tool as a transport's server registers it: its description and what answers its calls. */
    record Entry(Tool tool, Handler handler) {
    }

    /** Answers one call of a tool. */
    interface Handler {
        CallToolResult call(Caller caller, CallToolRequest request);
    }

    /** What a tool does with a call: its answer, and what the metrics count of it. */
    private interface Answering {
        ToolAnswer call(Caller caller, CallToolRequest request);
    }

    private static final long PACKAGE_CHECK_SECONDS = 2;

    private final McpJsonMapper json;
    private final CodeMode codeMode;
    private final ScheduledExecutorService timers;
    private final AutoInstaller autoInstaller;
    private final ExecuteCodeTool executeCode;
    private final PackageFolder packages;
    private final SortedSet<String> installed;
    private final List<Entry> entries;
    private final CallObserver observer;

    /**
     * @param notices  what the server tells clients that are listening (MCP log messages over stdio)
     * @param observer told of each call as it ends (remote mode's metrics, the audit log)
     */
    ToolSet(McpJsonMapper json, ServerConfig config, Sandbox sandbox, CodeMode codeMode, Consumer<Notice> notices,
            CallObserver observer) throws IOException {
        this.json = json;
        this.observer = observer;
        this.codeMode = codeMode;
        this.timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "mcp-timers");
            thread.setDaemon(true);
            return thread;
        });
        this.autoInstaller = config.autoInstall() ? new AutoInstaller(config.packagesDir(), WorkerRuntime.forInstaller(),
                config.autoInstallTimeout(), notices) : null;
        CodeRunner runner = new CodeRunner(sandbox, config.maxCodeBytes(), config.progressInterval(), timers,
                autoInstaller == null ? modules -> { } : autoInstaller::request);
        this.executeCode = new ExecuteCodeTool(runner, config, codeMode);
        this.packages = new PackageFolder(config.packagesDir());
        this.installed = packages.modules();
        RunPythonTool runPython = new RunPythonTool(runner, config);
        ValidateCodeTool validate = new ValidateCodeTool(runner, codeMode);
        InspectSessionTool inspect = new InspectSessionTool(sandbox);
        this.entries = List.of(entry(executeCode.tool(json, installed), executeCode::call),
                entry(runPython.tool(json), runPython::call),
                entry(validate.tool(json), validate::call),
                entry(inspect.tool(json), inspect::call));
    }

    /** The tool with what answers it, each call timed and told to the observer as it ends. */
    private Entry entry(Tool tool, Answering answering) {
        return new Entry(tool, (caller, request) -> {
            long started = System.nanoTime();
            ToolAnswer answer = answering.call(caller, request);
            observer.ended(new EndedCall(tool.name(), caller, request.arguments(), answer,
                    Duration.ofNanos(System.nanoTime() - started)));
            return answer.result();
        });
    }

    List<Entry> entries() {
        return entries;
    }

    static String instructions(CodeMode codeMode) {
        return "Run Python code safely with execute_code (structured result) or run_python (text);"
                + " validate_code checks code without running it. Code runs in an isolated GraalPy interpreter"
                + " without host file, network or process access; its files live in a private in-memory"
                + " scratch directory." + (codeMode.enabled() ? " With execute_code, code can call the tools of"
                + " other MCP servers through context.tools (see its description)." : "");
    }

    /**
     * Starts the watches: {@code replace} gets a new {@code execute_code} whenever what it must say changes
     * (an install while the server runs changes what code may import; code mode finds its tools after the
     * server answers), and the transport's server tells clients with {@code notifications/tools/list_changed}
     * where it can.
     */
    void watch(Consumer<Entry> replace) {
        PackageWatch watch = new PackageWatch(packages, installed,
                now -> replace.accept(entry(executeCode.tool(json, now), executeCode::call)));
        timers.scheduleWithFixedDelay(watch, PACKAGE_CHECK_SECONDS, PACKAGE_CHECK_SECONDS, TimeUnit.SECONDS);
        codeMode.onChange(() -> timers.execute(() -> {
            try {
                replace.accept(entry(executeCode.tool(json, watch.installed()), executeCode::call));
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(ToolSet.class).warn("could not update the tool list: {}", e.toString());
            }
        }));
    }

    @Override
    public void close() {
        if (autoInstaller != null) {
            autoInstaller.close();
        }
        timers.shutdownNow();
    }
}
