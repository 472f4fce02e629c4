package dev.pysandbox.mcp.transport;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

import io.modelcontextprotocol.json.McpJsonMapper;

/**
 * An in-memory stdout that splits what the server writes into lines and parses each one, so
 * tests see every message, and any interleaved or non-JSON output shows up in {@link #garbage}.
 */
final class LineCollector extends OutputStream {

    private final McpJsonMapper json;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    final LinkedBlockingQueue<Map<String, Object>> messages = new LinkedBlockingQueue<>();
    final List<Map<String, Object>> all = new CopyOnWriteArrayList<>();
    final List<String> garbage = new CopyOnWriteArrayList<>();

    LineCollector(McpJsonMapper json) {
        this.json = json;
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            accept(partial.toString(StandardCharsets.UTF_8));
            partial.reset();
        } else {
            partial.write(b);
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    @SuppressWarnings("unchecked")
    private void accept(String line) {
        try {
            Object parsed = json.readValue(line, Object.class);
            if (parsed instanceof Map<?, ?> map && "2.0".equals(map.get("jsonrpc"))) {
                all.add((Map<String, Object>) map);
                messages.add((Map<String, Object>) map);
                return;
            }
        } catch (Exception e) {
            // falls through to garbage
        }
        garbage.add(line.length() > 300 ? line.substring(0, 300) + "..." : line);
    }
}
