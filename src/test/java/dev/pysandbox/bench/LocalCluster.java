package dev.pysandbox.bench;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;

/**
 * N replicas of the server in remote mode behind HAProxy, all on loopback, as {@code bin/cluster-local} starts
 * them (the operator's "try it" path, so the tests exercise the script itself): a fresh bearer token, the
 * routing of deploy/haproxy/haproxy.cfg. Used by {@link ScaleTest} (bin/scale-test) and ScaleOutIT.
 */
public final class LocalCluster implements AutoCloseable {
    private final Process process;
    private final Properties env;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private LocalCluster(Process process, Properties env, String token) {
        this.process = process;
        this.env = env;
        this.token = token;
    }

    /**
     * Empty if bin/cluster-local finds an HAProxy (on PATH, or Debian's unpacked under target/deploy-tools, which
     * it does on the first call), otherwise why not.
     */
    public static Optional<String> haproxyMissing(Path root) throws IOException, InterruptedException {
        Process find = new ProcessBuilder(root.resolve("bin/cluster-local").toString(), "--find-haproxy")
                .directory(root.toFile()).redirectErrorStream(true).start();
        String text = new String(find.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!find.waitFor(5, TimeUnit.MINUTES)) {
            find.destroyForcibly();
            return Optional.of("bin/cluster-local --find-haproxy did not finish in 5 minutes: " + text);
        }
        return find.exitValue() == 0 ? Optional.empty() : Optional.of(text);
    }

    /**
     * Starts {@code replicas} replicas with {@code flags} and HAProxy in front of them, in {@code directory}, and
     * returns once HAProxy sees every replica ready. {@code haproxyConfig} replaces deploy/haproxy/haproxy.cfg if
     * not null (for experiments on the configuration).
     */
    public static LocalCluster start(Path root, int replicas, Path directory, Path haproxyConfig, List<String> flags)
            throws IOException, InterruptedException {
        return start(root, replicas, directory, haproxyConfig, flags, Map.of());
    }

    /** With {@code environment} added to the replicas' (and HAProxy's) environment. */
    public static LocalCluster start(Path root, int replicas, Path directory, Path haproxyConfig, List<String> flags,
            Map<String, String> environment) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        Path env = directory.resolve("cluster.env");
        Files.deleteIfExists(env);
        int port = freePort();
        int statsPort = freePort();
        List<String> command = new ArrayList<>(List.of(root.resolve("bin/cluster-local").toString(),
                Integer.toString(replicas), "--port=" + port, "--stats-port=" + statsPort, "--dir=" + directory));
        if (haproxyConfig != null) {
            command.add("--haproxy-config=" + haproxyConfig);
        }
        command.addAll(flags);
        File output = directory.resolve("cluster-local.out").toFile();
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(output);
        builder.environment().putAll(environment);
        Process process = builder.start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (!Files.exists(env)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.destroy();
                process.waitFor(30, TimeUnit.SECONDS);
                throw new IOException("bin/cluster-local did not come up; its output:\n"
                        + Files.readString(output.toPath()));
            }
            Thread.sleep(200);
        }
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(env)) {
            properties.load(in);
        }
        String token = Files.readString(Path.of(properties.getProperty("TOKEN_FILE"))).strip();
        return new LocalCluster(process, properties, token);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** HAProxy's base URL (the MCP endpoint is this plus /mcp). */
    public String url() {
        return env.getProperty("URL").replaceFirst("/mcp$", "");
    }

    /** A replica's own base URL, bypassing HAProxy. */
    public String replicaUrl(int k) {
        return "http://127.0.0.1:" + env.getProperty("r" + k + "_PORT");
    }

    public String haproxyVersion() {
        return env.getProperty("HAPROXY_VERSION");
    }

    /** SIGKILL to replica rK's server process (bubblewrap takes its workers with it). */
    public void kill(int k) throws InterruptedException {
        ProcessHandle handle = ProcessHandle.of(Long.parseLong(env.getProperty("r" + k + "_PID"))).orElseThrow();
        handle.destroyForcibly();
        handle.onExit().orTimeout(30, TimeUnit.SECONDS).join();
    }

    public boolean replicaAlive(int k) {
        return ProcessHandle.of(Long.parseLong(env.getProperty("r" + k + "_PID"))).map(ProcessHandle::isAlive).orElse(false);
    }

    /** A connected, initialized SDK client on {@code baseUrl} with this cluster's token. */
    public McpSyncClient client(String baseUrl, Duration requestTimeout) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(baseUrl)
                .endpoint("/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) -> builder.header("Authorization", "Bearer " + token))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(requestTimeout).build();
        client.initialize();
        return client;
    }

    /**
     * The replica HAProxy routes {@code sessionId} to: a ping (which touches no session) carrying the id in the
     * {@code Mcp-Param-Session-Id} header, answered with the {@code X-Sandbox-Replica} header the loopback
     * configuration adds. The header and the body's session_id hash the same string, so the answer holds for
     * calls that carry the id in the body only, provided HAProxy can read it there.
     */
    public String replicaOf(String sessionId) throws IOException, InterruptedException {
        HttpResponse<String> response = postThroughHaproxy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                "Mcp-Param-Session-Id", sessionId);
        if (response.statusCode() != 200) {
            throw new IOException("ping for " + sessionId + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.headers().firstValue("X-Sandbox-Replica").orElseThrow(
                () -> new IOException("no X-Sandbox-Replica header: is this deploy/haproxy/haproxy.cfg?"));
    }

    /**
     * The replica HAProxy routes a request to whose body carries {@code sessionId} at
     * {@code $.params.arguments.session_id} after {@code padBytes} of other JSON, as a tools/call with long code does:
     * a ping with a padded params object. The server's answer does not matter, only HAProxy's X-Sandbox-Replica.
     */
    public String replicaOfBody(String sessionId, int padBytes) throws IOException, InterruptedException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"arguments\":{\"code\":\""
                + "#".repeat(padBytes) + "\",\"session_id\":\"" + sessionId + "\"}}}";
        HttpResponse<String> response = postThroughHaproxy(body);
        return response.headers().firstValue("X-Sandbox-Replica").orElse("none (HTTP " + response.statusCode() + ")");
    }

    /** A POST to the MCP endpoint through HAProxy with this cluster's token, plus {@code headers} (name, value, ...). */
    private HttpResponse<String> postThroughHaproxy(String body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + "/mcp"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Requests HAProxy sent to each replica (rK) through {@code backend} (by_session or any), from its stats CSV. */
    public Map<String, Long> requestsPerReplica(String backend) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(env.getProperty("STATS_URL") + ";csv"))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        String[] header = response.body().lines().findFirst().orElse("").replaceFirst("^# ", "").split(",");
        int total = List.of(header).indexOf("stot");
        Map<String, Long> counts = new LinkedHashMap<>();
        response.body().lines().skip(1).map(line -> line.split(",", -1))
                .filter(f -> f.length > total && f[0].equals(backend) && f[1].matches("r\\d+"))
                .forEach(f -> counts.put(f[1], Long.parseLong(f[total])));
        return counts;
    }

    /** Stops the cluster as an operator's Ctrl-C would (SIGTERM to bin/cluster-local), and waits for it. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
    }
}
