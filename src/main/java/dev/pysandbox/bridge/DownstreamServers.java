package dev.pysandbox.bridge;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.json.McpJsonMapper;

import dev.pysandbox.config.CodeModeSettings;

/**
 * The lifecycle of code mode's downstream servers: one {@link Downstream} per enabled entry of the servers
 * file, started in the background, watched for tool changes (told to the operator's log and to listeners),
 * and closed all at once when the server ends.
 */
final class DownstreamServers implements AutoCloseable {
    /** Code mode's logger, as before these servers had a class of their own: operators filter on it. */
    private static final Logger log = LoggerFactory.getLogger(CodeMode.class);

    private final Map<String, Downstream> servers = new LinkedHashMap<>();
    private final ToolSafelist safelist;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param entries  the servers file's entries; disabled ones are left out
     * @param safelist what the log names as callable when a server's tools change
     * @param depth    how deep in code mode this server runs (0 unless a code mode launched it)
     * @param selfName our serverInfo name: a downstream server reporting it is refused (recursion)
     */
    DownstreamServers(CodeModeSettings settings, List<ServerEntry> entries, ToolSafelist safelist, McpJsonMapper json,
            int depth, String selfName, String version) {
        this.safelist = safelist;
        Duration longestCall = settings.toolTimeout();
        for (ServerEntry entry : entries) {
            if (entry.timeout() != null && entry.timeout().compareTo(longestCall) > 0) {
                longestCall = entry.timeout();
            }
        }
        for (ServerEntry entry : entries) {
            if (!entry.disabled()) {
                servers.put(entry.name(), new Downstream(entry, json, settings.startupTimeout(),
                        longestCall.plusSeconds(30), settings.maxConcurrentPerServer(), depth, selfName, version,
                        this::toolsChanged));
            }
        }
    }

    /** The servers by name, in the file's order. */
    Map<String, Downstream> byName() {
        return Collections.unmodifiableMap(servers);
    }

    /** Starts every server in the background; the log lists each one's callable tools. */
    void start() {
        log.info("code mode: starting {} downstream server(s): {}", servers.size(), String.join(", ", servers.keySet()));
        servers.values().forEach(Downstream::start);
    }

    /** Runs {@code listener} whenever the callable tools change (a server started, refreshed or lost its tools). */
    void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void toolsChanged(Downstream server) {
        List<String> callable = safelist.callable(server.entry(), server.tools().keySet(), ToolPatterns.narrowing(null));
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

    /**
     * Stops every server and what it started, all at once (a thread each: a parallel stream may run them one
     * after another on a small machine), so the whole takes as long as the slowest, a few seconds at most.
     * Idempotent; no server starts again afterwards.
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
