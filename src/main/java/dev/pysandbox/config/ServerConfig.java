package dev.pysandbox.config;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntSupplier;

import com.sun.management.OperatingSystemMXBean;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.files.FileLimits;
import dev.pysandbox.host.UserDirectories;
import dev.pysandbox.worker.ImportPolicy;

/**
 * The server's settings, typed and checked. Built once at start-up from {@link Settings}.
 *
 * <p>{@code runRoot} is null unless the operator set {@code run-python.root}: without it run_python reads no
 * host file (issue 22: desktop hosts start servers in {@code /}, so the working directory is no safe default).
 */
public record ServerConfig(
        int workers,
        int maxCallsPerWorker,
        String workerHeap,
        int readyContexts,
        int warmUpRuns,
        Duration workerStartup,
        Duration killGrace,
        List<String> workerJvmOptions,
        String jit,
        LongCallSettings longCalls,
        String osSandbox,
        Path cacheDir,
        Duration defaultTimeout,
        Duration maxTimeout,
        Duration runPythonTimeout,
        Path runRoot,
        boolean runReadsWorkingDirectory,
        int maxCodeBytes,
        int captureBytes,
        long stopAfterBytes,
        SessionSettings sessions,
        int maxLineBytes,
        Duration progressInterval,
        ImportPolicy imports,
        boolean strictBuiltins,
        List<String> preload,
        Path packagesDir,
        boolean autoInstall,
        Duration autoInstallTimeout,
        FileLimits fileLimits,
        CodeModeSettings codeMode,
        HttpSettings http,
        AuditSettings audit,
        String logLevel) {

    /** Heap the Graal compiler needs in a worker on top of worker.heap; see supervisor/WorkerKind.heap. */
    public static final long JIT_HEADROOM_MB = 768;

    private static final Set<String> LOG_LEVELS = Set.of("error", "warn", "info", "debug", "trace");

    public static ServerConfig from(Settings s) throws ConfigException {
        String heap = s.get("worker.heap");
        if (!heap.matches("\\d+[kKmMgG]?")) {
            throw new ConfigException("worker.heap must look like 512m or 2g, not '" + heap + "'");
        }
        Duration defaultTimeout = Duration.ofSeconds(integer(s, "execute.default-timeout-seconds", 1, 86_400));
        Duration maxTimeout = Duration.ofSeconds(integer(s, "execute.max-timeout-seconds", 1, 86_400));
        if (defaultTimeout.compareTo(maxTimeout) > 0) {
            throw new ConfigException("execute.default-timeout-seconds (" + defaultTimeout.toSeconds()
                    + ") is larger than execute.max-timeout-seconds (" + maxTimeout.toSeconds() + ")");
        }
        String logLevel = s.get("log.level").toLowerCase(Locale.ROOT);
        if (!LOG_LEVELS.contains(logLevel)) {
            throw new ConfigException("log.level must be one of " + LOG_LEVELS + ", not '" + logLevel + "'");
        }
        int captureBytes = integer(s, "output.capture-bytes", 64, 64 * 1024 * 1024);
        long stopAfter = integer(s, "output.stop-after-bytes", 1, Integer.MAX_VALUE);
        if (stopAfter < captureBytes) {
            throw new ConfigException("output.stop-after-bytes must be at least output.capture-bytes");
        }
        int returnBytes = integer(s, "files.return-bytes", 0, 64 * 1024 * 1024);
        long largestAnswer = AnswerBudget.of(captureBytes, returnBytes).largestAnswerBytes();
        if (largestAnswer > AnswerBudget.CLIENT_MESSAGE_BYTES) {
            // A hostile call could then make an answer the client refuses, losing its connection (SECURITY.md).
            throw new ConfigException("output.capture-bytes (" + captureBytes + ") and files.return-bytes ("
                    + returnBytes + ") allow answers of up to " + largestAnswer + " bytes, more than the "
                    + AnswerBudget.CLIENT_MESSAGE_BYTES + " bytes MCP clients read in one message; lower them");
        }
        int maxSessions = integer(s, "sessions.max", 1, 100_000);
        return new ServerConfig(
                workers(s.get("workers"), heap, !s.get("worker.jit").equals("off")),
                integer(s, "worker.max-calls", 1, Integer.MAX_VALUE),
                heap,
                integer(s, "worker.ready-contexts", 1, 16),
                integer(s, "worker.warm-up-runs", 0, 100_000),
                Duration.ofSeconds(integer(s, "worker.startup-timeout-seconds", 1, 3_600)),
                Duration.ofMillis(integer(s, "worker.kill-grace-millis", 100, 60_000)),
                s.get("worker.jvm-options").isBlank() ? List.of() : Arrays.asList(s.get("worker.jvm-options").split("\\s+")),
                oneOf(s, "worker.jit", Set.of("auto", "off")),
                longCalls(s, heap),
                oneOf(s, "worker.os-sandbox", Set.of("auto", "off", "required")),
                path(s.get("worker.cache-dir"), defaultCacheDir()),
                defaultTimeout,
                maxTimeout,
                Duration.ofSeconds(integer(s, "run-python.timeout-seconds", 1, 86_400)),
                runRoot(s),
                readsWorkingDirectory(s),
                integer(s, "code.max-bytes", 1, 256 * 1024 * 1024),
                captureBytes,
                stopAfter,
                new SessionSettings(maxSessions,
                        sessionsPerPrincipal(s.get("sessions.max-per-principal"), maxSessions),
                        sessionsPerWorker(s.get("sessions.per-worker"), heap),
                        Duration.ofSeconds(integer(s, "sessions.idle-timeout-seconds", 1, 7 * 86_400)),
                        integer(s, "sessions.rebuild-bytes", 0, Integer.MAX_VALUE),
                        Duration.ofSeconds(integer(s, "sessions.rebuild-seconds", 0, 86_400))),
                integer(s, "transport.max-line-bytes", 1024, Integer.MAX_VALUE),
                Duration.ofSeconds(integer(s, "progress.interval-seconds", 1, 3_600)),
                imports(s),
                bool(s, "builtins.strict"),
                modules(s, "worker.preload"),
                packagesDir(s),
                bool(s, "packages.auto-install"),
                Duration.ofSeconds(integer(s, "packages.auto-install-timeout-seconds", 1, 86_400)),
                new FileLimits(integer(s, "files.max-bytes", 0, Integer.MAX_VALUE),
                        integer(s, "files.max-count", 0, 1_000_000),
                        returnBytes),
                codeMode(s),
                http(s, workers(s.get("workers"), heap, !s.get("worker.jit").equals("off"))),
                audit(s),
                logLevel);
    }

    /** None when every worker already has the JIT ({@code worker.jit=auto}): a twin would run nowhere faster. */
    private static LongCallSettings longCalls(Settings s, String heap) throws ConfigException {
        Duration after = Duration.ofMillis(integer(s, "worker.jit-twin-after-millis", 100, 3_600_000));
        if (s.get("worker.jit").equals("auto")) {
            return LongCallSettings.NONE;
        }
        if (s.get("worker.jit-workers").equalsIgnoreCase("auto")) {
            int general = workers(s.get("workers"), heap, false);
            int picked = LongCallSettings.autoWorkers(Runtime.getRuntime().availableProcessors(), totalMemoryBytes(),
                    general * workerBytes(heap, false), workerBytes(heap, true));
            return new LongCallSettings(picked, after, true);
        }
        int workers;
        try {
            workers = integer(s, "worker.jit-workers", 0, 16);
        } catch (ConfigException e) {
            throw new ConfigException("worker.jit-workers must be 'auto' or a number from 0 to 16, not '"
                    + s.get("worker.jit-workers") + "'");
        }
        return workers == 0 ? LongCallSettings.NONE : new LongCallSettings(workers, after, false);
    }

    private static HttpSettings http(Settings s, int workers) throws ConfigException {
        boolean enabled = oneOf(s, "transport", Set.of("stdio", "http")).equals("http");
        String host = s.get("http.host").strip();
        boolean loopback = HttpSettings.isLoopback(host);
        String path = s.get("http.path").strip();
        if (!path.matches("/[A-Za-z0-9._~/-]*") || path.equals("/healthz") || path.equals("/readyz")) {
            throw new ConfigException("http.path must be a path like /mcp (not /healthz or /readyz), not '" + path + "'");
        }
        AuthMode auth = AuthMode.valueOf(oneOf(s, "http.auth", Set.of("token", "oauth", "none")).toUpperCase(Locale.ROOT));
        Path tokens = s.get("http.tokens-file").isBlank() ? null : path(s.get("http.tokens-file"), null);
        URI publicUrl = publicUrl(s.get("http.public-url"), path);
        OAuthSettings oauth = null;
        if (auth == AuthMode.TOKEN && enabled && tokens == null) {
            throw new ConfigException("http.auth=token needs http.tokens-file: one line 'principal:sha256-of-token'"
                    + " per caller (see README, Remote mode; python-sandbox-mcp token add makes one)");
        } else if (auth == AuthMode.OAUTH) {
            oauth = oauth(s);
            if (enabled && publicUrl == null && !loopback) {
                // Tokens are bound to the URL clients reach: the server cannot guess it behind a proxy.
                throw new ConfigException("http.auth=oauth needs http.public-url, the https URL clients reach the MCP"
                        + " endpoint at (e.g. https://sandbox.example.com" + path + "), unless http.host is a loopback address");
            }
        } else if (auth == AuthMode.NONE && enabled && !loopback) {
            throw new ConfigException("http.auth=none is refused unless http.host is a loopback address (it is '"
                    + host + "'): anyone who reaches the port could run code");
        }
        List<String> hosts = List.of(list(s.get("http.allowed-hosts")));
        List<String> origins = List.of(list(s.get("http.allowed-origins")));
        if (loopback && hosts.isEmpty()) {
            // A page in the user's browser may reach a loopback server through a rebound DNS name: only
            // requests addressed to loopback names get in (the DNS-rebinding advisory GHSA-8jxr-pr72-r468).
            hosts = List.of("localhost:*", "127.0.0.1:*", "[::1]:*");
        }
        if (loopback && origins.isEmpty()) {
            origins = List.of("http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*",
                    "https://localhost:*", "https://127.0.0.1:*", "https://[::1]:*");
        }
        int maxInFlight = integer(s, "http.max-in-flight", 0, 100_000);
        return new HttpSettings(enabled, host, integer(s, "http.port", 0, 65_535),
                s.get("http.port-file").isBlank() ? null : path(s.get("http.port-file"), null), path, auth, tokens,
                oauth, publicUrl, hosts, origins, integer(s, "http.max-request-bytes", 1024, Integer.MAX_VALUE),
                integer(s, "http.max-header-bytes", 8 * 1024, 64 * 1024 * 1024),
                Duration.ofSeconds(integer(s, "http.keepalive-seconds", 0, 3_600)),
                maxInFlight == 0 ? workers * 4 : maxInFlight);
    }

    /** {@code http.public-url}: an absolute http(s) URL whose path is the endpoint's as the proxy maps it; null if unset. */
    private static URI publicUrl(String raw, String path) throws ConfigException {
        if (raw.isBlank()) {
            return null;
        }
        try {
            URI url = new URI(raw.strip());
            if (!("https".equals(url.getScheme()) || "http".equals(url.getScheme())) || url.getHost() == null
                    || url.getRawQuery() != null || url.getRawFragment() != null) {
                throw new URISyntaxException(raw, "not an http(s) URL without query or fragment");
            }
            return url.getRawPath() == null || url.getRawPath().isEmpty() ? url.resolve(path) : url;
        } catch (URISyntaxException e) {
            throw new ConfigException("http.public-url must be the http(s) URL clients reach the MCP endpoint at,"
                    + " like https://sandbox.example.com" + path + ", not '" + raw + "'");
        }
    }

    private static AuditSettings audit(Settings s) throws ConfigException {
        String destination = s.get("audit.log");
        if (destination.isBlank()) {
            return AuditSettings.OFF;
        }
        if (destination.equals("stdout")) {
            throw new ConfigException("audit.log=stdout is refused: stdout carries the MCP protocol; use stderr or a file");
        }
        Path file = destination.equals("stderr") ? null : path(destination, null);
        if (file != null && (file.getParent() == null || !Files.isDirectory(file.getParent())
                || !Files.isWritable(file.getParent()) || Files.isDirectory(file)
                || (Files.exists(file) && !Files.isWritable(file)))) {
            // Said at start, in one line: an audit log that cannot be written must not leave calls unrecorded.
            throw new ConfigException("audit.log: cannot write " + file + " (its folder must exist and be writable"
                    + " by the server's user, and it must not be a folder)");
        }
        return new AuditSettings(true, file,
                bool(s, "audit.include-code"), integer(s, "audit.max-file-bytes", 1024, Integer.MAX_VALUE),
                // Logback's fixed window keeps at most 20 rotated files.
                integer(s, "audit.max-files", 1, 20));
    }

    private static OAuthSettings oauth(Settings s) throws ConfigException {
        String issuer = s.get("http.oauth.issuer");
        URI url;
        try {
            url = new URI(issuer);
        } catch (URISyntaxException e) {
            url = null;
        }
        if (issuer.isBlank() || url == null || url.getHost() == null
                || !("https".equals(url.getScheme()) || "http".equals(url.getScheme()))) {
            throw new ConfigException("http.auth=oauth needs http.oauth.issuer, the authorization server's issuer URL"
                    + " exactly as its tokens' iss claim says it (e.g. https://keycloak.example.com/realms/agents), not '"
                    + issuer + "'");
        }
        if (!OAuthSettings.trustedTransport(url)) {
            throw new ConfigException("http.oauth.issuer must be an https URL (plain http only on this machine, for"
                    + " tests): its keys read over plain http could be swapped by anyone on the path, not '" + issuer + "'");
        }
        String audience = s.get("http.oauth.audience");
        return new OAuthSettings(url, audience.isBlank() ? null : audience,
                Duration.ofSeconds(integer(s, "http.oauth.clock-skew-seconds", 0, 600)),
                integer(s, "http.oauth.max-token-bytes", 512, 1024 * 1024),
                // Below the 15 minutes fetched keys are kept: Nimbus refuses a refresh interval that is not.
                Duration.ofSeconds(integer(s, "http.oauth.jwks-refresh-seconds", 1, 600)));
    }

    /** The folder run_python's scriptPath and workingDirectory must stay under; null if the operator set none. */
    private static Path runRoot(Settings s) {
        String raw = s.get("run-python.root");
        return raw.isBlank() ? null : path(raw, null);
    }

    /** A run root shown to the code needs one the operator chose: the working directory may be {@code /}. */
    private static boolean readsWorkingDirectory(Settings s) throws ConfigException {
        boolean reads = bool(s, "run-python.read-working-directory");
        if (reads && s.get("run-python.root").isBlank()) {
            throw new ConfigException("run-python.read-working-directory=true needs run-python.root: the folder whose"
                    + " files run_python's code may read (--run-python.root=/absolute/path/to/scripts)");
        }
        return reads;
    }

    private static CodeModeSettings codeMode(Settings s) throws ConfigException {
        int limit = integer(s, "code-mode.max-tool-calls-limit", 0, 100_000);
        int calls = integer(s, "code-mode.max-tool-calls", 0, 100_000);
        if (calls > limit) {
            throw new ConfigException("code-mode.max-tool-calls (" + calls + ") is larger than"
                    + " code-mode.max-tool-calls-limit (" + limit + ")");
        }
        String servers = s.get("code-mode.servers");
        return new CodeModeSettings(servers.isBlank() ? null : Path.of(servers).toAbsolutePath().normalize(),
                List.of(list(s.get("code-mode.allow"))), List.of(list(s.get("code-mode.deny"))), calls, limit,
                Duration.ofSeconds(integer(s, "code-mode.tool-timeout-seconds", 1, 86_400)),
                // Ceilings that keep each message within the lines the worker protocol and downstream reading allow.
                integer(s, "code-mode.max-param-bytes", 2, 2 * 1024 * 1024),
                integer(s, "code-mode.max-result-bytes", 64, 8 * 1024 * 1024),
                integer(s, "code-mode.max-inputs-bytes", 2, 64 * 1024 * 1024),
                integer(s, "code-mode.max-concurrent-per-server", 1, 1024),
                Duration.ofSeconds(integer(s, "code-mode.startup-timeout-seconds", 1, 3_600)),
                bool(s, "code-mode.validate-params"));
    }

    private static ImportPolicy imports(Settings s) throws ConfigException {
        try {
            return ImportPolicy.named(s.get("imports.profile"))
                    .allow(list(s.get("imports.allow")))
                    .remove(list(s.get("imports.deny")));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("imports: " + e.getMessage());
        }
    }

    private static List<String> modules(Settings s, String key) throws ConfigException {
        List<String> modules = List.of(list(s.get(key)));
        for (String module : modules) {
            if (!ImportPolicy.isModuleName(module)) {
                throw new ConfigException(key + ": '" + module + "' is not a module name");
            }
        }
        return modules;
    }

    private static String[] list(String raw) {
        return raw.isBlank() ? new String[0] : raw.strip().split("\\s*,\\s*");
    }

    private static String oneOf(Settings s, String key, Set<String> allowed) throws ConfigException {
        String raw = s.get(key).toLowerCase(Locale.ROOT);
        if (!allowed.contains(raw)) {
            throw new ConfigException(key + " must be one of " + new TreeSet<>(allowed) + ", not '" + raw + "'");
        }
        return raw;
    }

    private static boolean bool(Settings s, String key) throws ConfigException {
        String raw = s.get(key).toLowerCase(Locale.ROOT);
        return switch (raw) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(key + " must be true or false, not '" + raw + "'");
        };
    }

    private static int integer(Settings s, String key, int min, int max) throws ConfigException {
        String raw = s.get(key);
        try {
            long value = Long.parseLong(raw);
            if (value < min || value > max) {
                throw new ConfigException(key + " must be between " + min + " and " + max + ", not " + raw);
            }
            return (int) value;
        } catch (NumberFormatException e) {
            throw new ConfigException(key + " must be a whole number, not '" + raw + "'");
        }
    }

    private static int workers(String raw, String heap, boolean jit) throws ConfigException {
        return autoOrNumber("workers", raw, 64, () -> {
            int cores = Runtime.getRuntime().availableProcessors();
            long perWorker = workerBytes(heap, jit);
            long memory = totalMemoryBytes();
            int byMemory = memory <= 0 ? cores : (int) Math.max(1, (memory / 2) / perWorker);
            return Math.max(1, Math.min(cores, byMemory));
        });
    }

    /** What one worker takes: its heap, the JIT compiler's headroom on top of it and ~300 MB outside the heap. */
    private static long workerBytes(String heap, boolean jit) {
        return heapBytes(heap) + ((jit ? JIT_HEADROOM_MB : 0) + 300L) * 1024 * 1024;
    }

    /**
     * {@code auto}: the whole table, {@code sessions.max}. A principal alone may use it; once others open
     * sessions, a full table takes from whoever holds the most (see SessionRegistry), so each of them keeps its
     * fair share without a fixed number. A number caps every principal below that.
     */
    static int sessionsPerPrincipal(String raw, int maxSessions) throws ConfigException {
        int perPrincipal = autoOrNumber("sessions.max-per-principal", raw, 100_000, () -> maxSessions);
        if (perPrincipal > maxSessions) {
            throw new ConfigException("sessions.max-per-principal (" + perPrincipal + ") is larger than sessions.max ("
                    + maxSessions + ")");
        }
        return perPrincipal;
    }

    /**
     * {@code auto}: what fits in a worker's heap beside its own needs. Measured on GraalPy 25 with
     * {@code n = 1} in each session: 26 idle sessions fit in 256m and 81 in 512m, so about 5 MB each over
     * about 135 MB; the margins leave room for the call that runs and for sessions holding some data.
     */
    static int sessionsPerWorker(String raw, String heap) throws ConfigException {
        return autoOrNumber("sessions.per-worker", raw, 100_000,
                () -> (int) Math.clamp((heapBytes(heap) / (1024 * 1024) - 160) / 6, 1, 100_000));
    }

    /** A key whose value is {@code auto} (then {@code auto} computes it) or a number from 1 to {@code max}. */
    private static int autoOrNumber(String key, String raw, int max, IntSupplier auto)
            throws ConfigException {
        if (raw.equalsIgnoreCase("auto")) {
            return auto.getAsInt();
        }
        try {
            int n = Integer.parseInt(raw);
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the message
        }
        throw new ConfigException(key + " must be 'auto' or a number from 1 to " + max + ", not '" + raw + "'");
    }

    public static long heapBytes(String heap) {
        char unit = Character.toLowerCase(heap.charAt(heap.length() - 1));
        String digits = Character.isDigit(unit) ? heap : heap.substring(0, heap.length() - 1);
        long n = Long.parseLong(digits);
        return switch (unit) {
            case 'k' -> n * 1024;
            case 'm' -> n * 1024 * 1024;
            case 'g' -> n * 1024 * 1024 * 1024;
            default -> n;
        };
    }

    /** The machine's memory, or -1 when the JVM cannot tell. */
    public static long totalMemoryBytes() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return -1;
    }

    private static Path path(String raw, Path fallback) {
        return (raw.isBlank() ? fallback : Path.of(raw)).toAbsolutePath().normalize();
    }

    /**
     * Installed packages are data the operator chose, not a cache, and must never sit inside the worker's
     * resource cache: that is the one folder a worker may write, and a worker must not be able to plant
     * code for the calls after it.
     */
    private static Path packagesDir(Settings s) throws ConfigException {
        Path dir = path(s.get("packages.dir"), defaultDataDir().resolve("packages"));
        Path cache = path(s.get("worker.cache-dir"), defaultCacheDir());
        if (dir.startsWith(cache) || cache.startsWith(dir)) {
            throw new ConfigException("packages.dir (" + dir + ") must not be inside worker.cache-dir (" + cache
                    + ") or contain it: workers may write to their cache");
        }
        return dir;
    }

    private static Path defaultDataDir() {
        return UserDirectories.current().data().resolve("python-sandbox-mcp");
    }

    private static Path defaultCacheDir() {
        return UserDirectories.current().cache().resolve("python-sandbox-mcp");
    }
}
