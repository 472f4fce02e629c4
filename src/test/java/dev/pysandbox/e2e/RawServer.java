package dev.pysandbox.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.pysandbox.wire.WireCodec;

/**
 * The server driven by raw JSON-RPC lines, for what a well-behaved client never sends: malformed lines,
 * oversized lines, cancellation at a chosen moment, EOF with calls in flight. Every stdout line is kept so a
 * test can check that stdout carried nothing but JSON-RPC.
 */
final class RawServer implements AutoCloseable {
    final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<Map<String, Object>> responses = new LinkedBlockingQueue<>();
    /** What the server sent on its own (progress, log responses), kept apart from the responses. */
    final List<Map<String, Object>> notifications = new CopyOnWriteArrayList<>();
    final List<String> stdoutLines = new CopyOnWriteArrayList<>();

    private RawServer(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        Thread reader = new Thread(this::readStdout, "raw-server-stdout");
        reader.setDaemon(true);
        reader.start();
        Thread errors = new Thread(() -> process.errorReader().lines().forEach(l -> System.err.println("[raw server] " + l)));
        errors.setDaemon(true);
        errors.start();
    }

    static RawServer start(String... flags) throws IOException {
        List<String> command = new ArrayList<>(List.of(SandboxServer.LAUNCHER.toString()));
        command.addAll(SandboxServer.withSuiteFlags(List.of(flags)));
        RawServer server = new RawServer(SandboxServer.suiteProcess(command).start());
        server.send("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw-test\",\"version\":\"1\"}}}");
        server.awaitResponse("init", Duration.ofSeconds(60));
        server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return server;
    }

    void send(String line) {
        try {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void closeStdin() throws IOException {
        stdin.close();
    }

    static String executeCall(Object id, String code, String sessionId) {
        String session = sessionId == null ? "" : ",\"session_id\":" + WireCodec.encode(sessionId);
        return "{\"jsonrpc\":\"2.0\",\"id\":" + WireCodec.encode(id) + ",\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
                + "\"arguments\":{\"language\":\"python\",\"code\":" + WireCodec.encode(code) + session + "}}}";
    }

    /** The next response whose id equals {@code id} (compared as text, so 7 and "7" are different). */
    Map<String, Object> awaitResponse(Object id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String wanted = WireCodec.encode(id);
        List<Map<String, Object>> skipped = new ArrayList<>();
        try {
            while (true) {
                long remaining = deadline - System.nanoTime();
                Map<String, Object> message = remaining > 0 ? responses.poll(remaining, TimeUnit.NANOSECONDS) : null;
                if (message == null) {
                    throw new AssertionError("no response with id " + wanted + " within " + timeout + "; other responses: " + skipped);
                }
                if (WireCodec.encode(message.get("id")).equals(wanted)) {
                    responses.addAll(skipped);
                    return message;
                }
                skipped.add(message);
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Pings with a fresh id and waits for the answer: the server is alive and reading. */
    void assertAlive(String id) {
        send("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"ping\"}");
        Map<String, Object> pong = awaitResponse(id, Duration.ofSeconds(30));
        if (!pong.containsKey("result")) {
            throw new AssertionError("ping failed: " + pong);
        }
    }

    @SuppressWarnings("unchecked")
    private void readStdout() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                stdoutLines.add(line);
                Map<String, Object> message = (Map<String, Object>) WireCodec.parseValue(line);
                (message.containsKey("method") ? notifications : responses).add(message);
            }
        } catch (IOException | RuntimeException e) {
            stdoutLines.add("<<unreadable stdout: " + e + ">>");
        }
    }

    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // already closed
        }
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
