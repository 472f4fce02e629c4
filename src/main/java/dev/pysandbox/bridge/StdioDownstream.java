package dev.pysandbox.bridge;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import reactor.core.publisher.Mono;

import dev.pysandbox.process.ProcessTree;
import dev.pysandbox.wire.BoundedLineReader;

/**
 * The client side of a downstream server's stdio, in place of the SDK's {@code StdioClientTransport}, which
 * cannot keep three of SECURITY.md's promises: it hands the child our whole environment, credentials
 * included, whatever the configuration says (guarantee 6); it does not notice the child dying, so a call in
 * flight waits out its whole timeout (<i>Code mode, enforced in the server</i>: a dying child fails its
 * calls at once); and it cannot bound its shutdown (<i>No process outlives the server</i>). Here the child
 * gets a cleared environment (a short safe list plus what the operator configured, as README.md's code mode
 * section lists it), its exit is reported at once, and closing it ends its whole process tree within seconds.
 */
final class StdioDownstream implements McpClientTransport {
    private static final Logger log = LoggerFactory.getLogger(StdioDownstream.class);
    /** What the TypeScript SDK passes a child by default: enough to find programs and a home, no secrets. */
    static final List<String> SAFE_ENVIRONMENT = List.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER");
    /** The environment variable that tells a child how deep in code mode it runs (recursion guard). */
    static final String DEPTH_VARIABLE = "PYSANDBOX_MCP_DEPTH";
    /**
     * The longest message read from a downstream server, over stdio or HTTP: twice code-mode.max-result-bytes'
     * ceiling (an answer may carry its result as structured content and as text), so that no server makes ours
     * hold more.
     */
    static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    private static final int STDERR_TAIL_LINES = 20;

    private final ServerEntry entry;
    private final McpJsonMapper json;
    private final int depth;
    private final Runnable onExit;
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private volatile Process process;
    private volatile OutputStream stdin;
    private ProcessTree tree;
    /** Set by {@link #stop()}: a start still under way then starts nothing (the server is ending). */
    private boolean stopped;

    /**
     * @param depth  how deep this server runs in code mode; its children run one deeper
     * @param onExit told once when the child's output ends (it exited or closed stdout)
     */
    StdioDownstream(ServerEntry entry, McpJsonMapper json, int depth, Runnable onExit) {
        this.entry = entry;
        this.json = json;
        this.depth = depth;
        this.onExit = onExit;
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            List<String> command = new ArrayList<>();
            command.add(entry.command());
            command.addAll(entry.args());
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().clear();
            builder.environment().putAll(environment(System.getenv()));
            if (entry.cwd() != null) {
                builder.directory(entry.cwd().toFile());
            }
            synchronized (this) {
                if (stopped) {
                    throw new IllegalStateException("server '" + entry.name() + "' was not started: the server is ending");
                }
                try {
                    process = builder.start();
                } catch (IOException e) {
                    throw new IllegalStateException("cannot start '" + entry.command() + "': " + e.getMessage(), e);
                }
                tree = new ProcessTree(process);
            }
            stdin = process.getOutputStream();
            Thread.ofPlatform().daemon().name("mcp-" + entry.name() + "-out").start(() -> readMessages(handler));
            Thread.ofPlatform().daemon().name("mcp-" + entry.name() + "-err").start(this::readStderr);
        });
    }

    /** The child's environment: the safe list from ours, then what the operator configured, then its depth. */
    Map<String, String> environment(Map<String, String> ours) {
        Map<String, String> env = new TreeMap<>();
        for (String name : SAFE_ENVIRONMENT) {
            String value = ours.get(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        env.putAll(entry.env());
        env.put(DEPTH_VARIABLE, Integer.toString(depth + 1));
        return env;
    }

    private void readMessages(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        try {
            BoundedLineReader lines = new BoundedLineReader(process.getInputStream(), MAX_MESSAGE_BYTES);
            while (true) {
                BoundedLineReader.Result next = lines.next();
                if (next instanceof BoundedLineReader.Eof) {
                    break;
                }
                if (!(next instanceof BoundedLineReader.Line line) || line.text().isBlank()) {
                    log.warn("downstream {}: skipped a message longer than {} bytes", entry.name(), MAX_MESSAGE_BYTES);
                    continue;
                }
                JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(json, line.text());
                } catch (IOException | RuntimeException e) {
                    // A server that logs to stdout: skip the line rather than stall every call.
                    log.debug("downstream {}: not JSON-RPC: {}", entry.name(), shorten(line.text()));
                    continue;
                }
                handler.apply(Mono.just(message)).subscribe(reply -> { }, error ->
                        log.debug("downstream {}: message handling failed: {}", entry.name(), error.toString()));
            }
        } catch (IOException e) {
            log.debug("downstream {}: stdout ended: {}", entry.name(), e.getMessage());
        } finally {
            onExit.run();
        }
    }

    private void readStderr() {
        try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line = err.readLine(); line != null; line = err.readLine()) {
                log.debug("downstream {}: {}", entry.name(), line);
                synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_TAIL_LINES) {
                        stderrTail.removeFirst();
                    }
                    stderrTail.addLast(shorten(line));
                }
            }
        } catch (IOException ignored) {
            // the process is gone
        }
    }

    /** The last lines the child wrote to stderr, for the operator's log (never for guest code). */
    String stderrTail() {
        synchronized (stderrTail) {
            return String.join(" | ", stderrTail);
        }
    }

    /** The child's exit code, or null while it runs (or before it started). */
    Integer exitCode() {
        Process p = process;
        return p == null || p.isAlive() ? null : p.exitValue();
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            OutputStream out = stdin;
            if (out == null) {
                throw new IllegalStateException("downstream " + entry.name() + " is not started");
            }
            try {
                byte[] line = (json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
                synchronized (out) {
                    out.write(line);
                    out.flush();
                }
            } catch (IOException e) {
                throw new IllegalStateException("downstream " + entry.name() + " is gone: " + e.getMessage(), e);
            }
        });
    }

    /** Ends the child's process tree: stdin closed (a well-behaved server exits), then SIGTERM, then SIGKILL. */
    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::stop);
    }

    /** Ends the child and every process it started, within about three times {@link ProcessTree#AT_EXIT_GRACE}; idempotent. */
    void stop() {
        ProcessTree started;
        synchronized (this) {
            stopped = true;
            started = tree;
        }
        if (started != null) {
            started.end(ProcessTree.AT_EXIT_GRACE);
        }
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return json.convertValue(data, type);
    }

    private static String shorten(String line) {
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
