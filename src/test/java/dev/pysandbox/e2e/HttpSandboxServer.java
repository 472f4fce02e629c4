package dev.pysandbox.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;

/**
 * The real server in remote mode ({@code --transport=http}), launched with bin/python-sandbox-mcp on a free
 * loopback port, with a tokens file of its own. Clients are the MCP Java SDK's over Streamable HTTP, or raw
 * HTTP for what an SDK client would never send.
 */
final class HttpSandboxServer implements AutoCloseable {
    final Process process;
    final int port;
    final Path directory;
    /** The server's stderr (its log), line by line. */
    final List<String> log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpSandboxServer(Process process, int port, Path directory, List<String> log) {
        this.process = process;
        this.port = port;
        this.directory = directory;
        this.log = log;
    }

    /**
     * Starts the server with bearer tokens for each {@code principal -> token} and the flags given, and waits
     * until /readyz says a worker is up.
     */
    static HttpSandboxServer start(Map<String, String> tokens, String... flags) throws Exception {
        Path directory = Files.createTempDirectory("http-server");
        Path tokensFile = directory.resolve("tokens");
        StringBuilder lines = new StringBuilder("# principal:sha256-of-token\n");
        for (Map.Entry<String, String> entry : tokens.entrySet()) {
            lines.append(entry.getKey()).append(':').append(sha256(entry.getValue())).append('\n');
        }
        Files.writeString(tokensFile, lines);
        Path portFile = directory.resolve("port");
        List<String> command = new ArrayList<>(List.of(SandboxServer.LAUNCHER.toString(), "--transport=http",
                "--http.port=0", "--http.port-file=" + portFile));
        List<String> own = new ArrayList<>();
        if (!tokens.isEmpty()) {
            own.add("--http.tokens-file=" + tokensFile);
        }
        own.addAll(List.of(flags));
        command.addAll(SandboxServer.withSuiteFlags(own));
        Process process = SandboxServer.suiteProcess(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        List<String> log = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    log.add(line);
                    System.err.println("[http-server] " + line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "http-server-log");
        reader.setDaemon(true);
        reader.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (!Files.exists(portFile)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new AssertionError("the HTTP server did not start; its log:\n" + String.join("\n", log));
            }
            Thread.sleep(100);
        }
        HttpSandboxServer server = new HttpSandboxServer(process, Integer.parseInt(Files.readString(portFile).strip()),
                directory, log);
        server.awaitReady(deadline);
        return server;
    }

    private void awaitReady(long deadline) throws Exception {
        while (System.nanoTime() < deadline) {
            if (get("/readyz").statusCode() == 200) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no worker became ready");
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** A connected, initialized SDK client sending {@code token} (null for none). */
    McpSyncClient client(String token) {
        return client(token, spec -> spec);
    }

    McpSyncClient client(String token, UnaryOperator<McpClient.SyncSpec> spec) {
        return client(port, token, spec);
    }

    /** A client of the server reached through {@code viaPort} (a proxy in front of it). */
    McpSyncClient client(int viaPort, String token, UnaryOperator<McpClient.SyncSpec> spec) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + viaPort)
                .endpoint("/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) -> {
                    if (token != null) {
                        builder.header("Authorization", "Bearer " + token);
                    }
                })
                .build();
        McpSyncClient client = spec.apply(McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))).build();
        client.initialize();
        return client;
    }

    /** A GET of {@code path} with {@code headers} (name, value, ...). */
    HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(path))).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.setHeader(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST to the MCP endpoint with the usual headers plus {@code headers} (name, value, ...). */
    HttpResponse<String> post(String body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url("/mcp")))
                .timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.setHeader(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    static String sha256(String token) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    }
}
