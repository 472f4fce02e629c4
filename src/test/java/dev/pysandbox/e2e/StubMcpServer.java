package dev.pysandbox.e2e;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * A small downstream MCP server on stdio for the end-to-end tests of code mode: our server launches it as a
 * child process and calls its tools from Python. Each tool exercises one path of the bridge: plain text
 * ({@code echo}, {@code big}), structured output ({@code add}), JSON in a text block ({@code json_text}), a slow
 * call ({@code slow}), a tool error ({@code fail}), a JSON-RPC error ({@code rpc_error}), the child's
 * environment ({@code env}), a crash mid-call ({@code crash}), a name our server must refuse to forward
 * ({@code execute_code}) and the process id ({@code pid}).
 *
 * <p>Run as {@code java -cp target/test-classes:target/classes:target/lib/* dev.pysandbox.e2e.StubMcpServer
 * [--name=NAME] [--finish-calls-at-eof] [--child]}; the server calls itself {@code stub-mcp} unless {@code --name}
 * says otherwise. Stdout carries the protocol only: logs go to stderr, and the process exits when stdin closes.
 * Two switches make it the kind of server that outlives a careless client: {@code --finish-calls-at-eof} waits
 * at end of input for the calls still running (as servers built on the Python SDK do), so a {@code slow} call
 * keeps it alive; {@code --child} starts a process of its own that never reads its input (as {@code npx} starts
 * {@code node}), which only a signal ends.
 */
public final class StubMcpServer {
    static {
        logToStderr(); // before anything (the SDK included) can log
    }

    private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
    /** The tool calls running now, for {@code --finish-calls-at-eof}. */
    private static final AtomicInteger RUNNING = new AtomicInteger();

    private StubMcpServer() {
    }

    public static void main(String[] args) throws Exception {
        // Also from the environment: a servers file that names python-sandbox-mcp in its args is refused before
        // the stub could start, and the test of the serverInfo check needs the stub to start.
        String name = System.getenv().getOrDefault("STUB_SERVER_NAME", "stub-mcp");
        boolean finishCallsAtEof = false;
        for (String arg : args) {
            if (arg.startsWith("--name=")) {
                name = arg.substring("--name=".length());
            }
            finishCallsAtEof |= arg.equals("--finish-calls-at-eof");
            if (arg.equals("--child")) {
                new ProcessBuilder("sleep", "1000000").redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            }
        }
        // On stdin EOF the SDK's stdio provider closes the session (later answers are dropped) but leaves the JVM
        // running on its non-daemon threads: exit ourselves, after a moment for output already queued.
        CountDownLatch stdinClosed = new CountDownLatch(1);
        InputStream stdin = new FilterInputStream(System.in) {
            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                try {
                    int n = super.read(buffer, offset, length);
                    if (n < 0) {
                        stdinClosed.countDown();
                    }
                    return n;
                } catch (IOException e) {
                    stdinClosed.countDown();
                    throw e;
                }
            }
        };
        McpServer.sync(new StdioServerTransportProvider(JSON, stdin, System.out))
                .serverInfo(name, "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .tools(tools())
                .build();
        stdinClosed.await();
        Thread.sleep(200);
        while (finishCallsAtEof && RUNNING.get() > 0) {
            Thread.sleep(100);
        }
        System.exit(0);
    }

    private static List<SyncToolSpecification> tools() {
        return List.of(
                tool("echo", "Returns the text it is given.", object(string("text"), "text"), null,
                        (ex, req) -> text(str(req, "text"))),
                tool("add", "Adds two integers; the sum comes as structured content.",
                        object(integer("a") + "," + integer("b"), "a", "b"), object(integer("sum"), "sum"),
                        (ex, req) -> structured(Map.of("sum", num(req, "a") + num(req, "b")))),
                tool("json_text", "Returns JSON as a plain text block, without structured content.", object(""), null,
                        (ex, req) -> text("{\"items\":[1,2,3],\"name\":\"stub\"}")),
                tool("slow", "Sleeps for ms milliseconds, then answers.", object(integer("ms"), "ms"), null,
                        (ex, req) -> {
                            sleep(num(req, "ms"));
                            return text("slept " + num(req, "ms"));
                        }),
                tool("fail", "Returns a tool error (isError) with the message.", object(string("message"), "message"),
                        null, (ex, req) -> CallToolResult.builder().addTextContent(str(req, "message")).isError(true)
                                .build()),
                tool("rpc_error", "Fails the call with a JSON-RPC error instead of a result.", object(""), null,
                        (ex, req) -> {
                            throw McpError.builder(-32603).message("rpc_error: deliberate JSON-RPC error").build();
                        }),
                tool("env", "Says whether an environment variable is set, and lists every variable's name.",
                        object(string("name"), "name"), null, (ex, req) -> {
                            String value = System.getenv(str(req, "name"));
                            Map<String, Object> out = new HashMap<>();
                            out.put("present", value != null);
                            out.put("value_length", value == null ? null : value.length());
                            out.put("names", new TreeSet<>(System.getenv().keySet()));
                            return structured(out);
                        }),
                tool("crash", "Kills this server process in the middle of the call.", object(""), null,
                        (ex, req) -> {
                            sleep(300);
                            Runtime.getRuntime().halt(9);
                            return text("unreachable");
                        }),
                tool("big", "Returns a text of the given number of 'x' characters.", object(integer("bytes"), "bytes"),
                        null, (ex, req) -> text("x".repeat((int) num(req, "bytes")))),
                tool("execute_code", "A downstream tool whose name our server must refuse to call.",
                        object(string("code"), "code"), null, (ex, req) -> text("downstream execute_code ran")),
                tool("pid", "Returns this server's process id.", object(""), null,
                        (ex, req) -> text(Long.toString(ProcessHandle.current().pid()))));
    }

    private static SyncToolSpecification tool(String name, String description, String inputSchema,
            String outputSchema, BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
        Tool.Builder tool = Tool.builder(name, JSON, inputSchema).description(description);
        if (outputSchema != null) {
            tool.outputSchema(JSON, outputSchema);
        }
        return SyncToolSpecification.builder().tool(tool.build()).callHandler((exchange, request) -> {
            RUNNING.incrementAndGet();
            try {
                return handler.apply(exchange, request);
            } finally {
                RUNNING.decrementAndGet();
            }
        }).build();
    }

    /** An object schema with the given properties (a JSON fragment), all of the named ones required. */
    private static String object(String properties, String... required) {
        String names = String.join(",", Arrays.stream(required).map(r -> "\"" + r + "\"").toList());
        return "{\"type\":\"object\",\"properties\":{" + properties + "},\"required\":[" + names + "]}";
    }

    private static String string(String property) {
        return "\"" + property + "\":{\"type\":\"string\"}";
    }

    private static String integer(String property) {
        return "\"" + property + "\":{\"type\":\"integer\"}";
    }

    private static CallToolResult text(String text) {
        return CallToolResult.builder().addTextContent(text).build();
    }

    /** Structured content plus the same JSON as a text block, as the spec recommends. */
    private static CallToolResult structured(Map<String, Object> content) {
        try {
            return CallToolResult.builder().structuredContent(content).addTextContent(JSON.writeValueAsString(content))
                    .build();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Sends log lines (WARN and up) to stderr whatever logback configuration the classpath holds: without one,
     * logback's default would print DEBUG lines to stdout, the protocol channel.
     */
    private static void logToStderr() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level [stub-mcp] %logger{24} - %msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
    }

    private static String str(CallToolRequest request, String key) {
        return String.valueOf(request.arguments().get(key));
    }

    private static long num(CallToolRequest request, String key) {
        return ((Number) request.arguments().get(key)).longValue();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
