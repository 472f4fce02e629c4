package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The deployment artefacts under deploy/: {@code bin/validate-deploy} renders the kustomize base, checks every
 * object against the Kubernetes API schema (unknown fields refused) and haproxy.cfg with {@code haproxy -c}, all
 * offline, installing what it lacks under target/deploy-tools (the first run takes a few seconds more). Then the
 * rendered objects ({@code target/deploy-tools/rendered.json}, written by the script) are read here, and the
 * properties the design relies on are checked by name: the servers reach nothing and only HAProxy reaches them,
 * they run as non-root in HTTP mode with token auth, drain for long enough, and HAProxy pins sessions by
 * session_id with buffers large enough to see it. Skipped with a message without node and npm.
 */
class DeployManifestsIT {
    private static final Path ROOT = SandboxServer.PROJECT_ROOT;
    private static final Path RENDERED = ROOT.resolve("target/deploy-tools/rendered.json");
    private static final Path RENDERED_OAUTH = ROOT.resolve("target/deploy-tools/rendered-oauth.json");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** execute.max-timeout-seconds plus the kill grace, rounded up: what a draining server may need. */
    private static final int DRAIN_SECONDS = 330;

    private static String output;
    private static List<JsonNode> objects;

    @BeforeAll
    static void validate() throws Exception {
        NodeToolchain.requirePresent("deployment manifest");
        assumeTrue(onPath("kubectl") || onPath("apt-get"),
                "neither kubectl nor apt-get (for Debian's kubernetes-client): the deployment manifest tests are skipped");
        File log = File.createTempFile("validate-deploy", ".log");
        log.deleteOnExit();
        Process process = new ProcessBuilder(ROOT.resolve("bin/validate-deploy").toString())
                .directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(log).start();
        boolean finished = process.waitFor(10, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly();
        }
        output = Files.readString(log.toPath());
        assertTrue(finished, "bin/validate-deploy did not finish within 10 minutes:\n" + output);
        assertEquals(0, process.exitValue(), "bin/validate-deploy failed:\n" + output);
        objects = new ArrayList<>(JSON.readTree(RENDERED).values());
    }

    @Test
    void everyObjectIsRenderedAndChecked() {
        assertTrue(output.contains("all checks passed"), output);
        assertTrue(output.contains("schema: Kubernetes"), output);
        // The script unpacks Debian's HAProxy where none is installed: "all checks passed" must include it.
        assertTrue(output.contains("haproxy: 2.") && !output.contains("haproxy: SKIPPED"), output);
        for (String[] kindAndName : new String[][] {{"StatefulSet", "sandbox"}, {"Service", "sandbox"},
                {"Secret", "sandbox-tokens"}, {"Deployment", "sandbox-haproxy"}, {"Service", "sandbox-haproxy"},
                {"PodDisruptionBudget", "sandbox"}, {"NetworkPolicy", "sandbox"}}) {
            object(kindAndName[0], kindAndName[1]);
        }
        generated("ConfigMap", "sandbox-haproxy");
    }

    @Test
    void prometheusIsToldToScrapeTheMetricsPortAndPath() {
        JsonNode template = object("StatefulSet", "sandbox").path("spec").path("template");
        JsonNode annotations = template.path("metadata").path("annotations");
        assertEquals("true", annotations.path("prometheus.io/scrape").asString(), template.toString());
        assertEquals("8080", annotations.path("prometheus.io/port").asString());
        assertEquals("/metrics", annotations.path("prometheus.io/path").asString());
    }

    @Test
    void sandboxPodsReachNothingAndOnlyHaproxyAndPrometheusReachThem() {
        Map<String, String> pods = labels(object("StatefulSet", "sandbox").path("spec").path("template"));
        Map<String, String> haproxy = labels(object("Deployment", "sandbox-haproxy").path("spec").path("template"));
        JsonNode deny = object("NetworkPolicy", "sandbox");
        assertTrue(selects(deny.path("spec").path("podSelector"), pods), "NetworkPolicy sandbox selects the servers");
        assertTrue(strings(deny.path("spec").path("policyTypes")).contains("Egress"),
                "NetworkPolicy sandbox governs egress (without Egress in policyTypes it allows all): " + deny);
        // Policies add up: any policy that selects the servers and allows some egress would undo the denial.
        int governing = 0;
        for (JsonNode policy : all("NetworkPolicy")) {
            JsonNode spec = policy.path("spec");
            if (!selects(spec.path("podSelector"), pods)) {
                continue;
            }
            governing++;
            String name = policy.path("metadata").path("name").asString();
            assertEquals(0, spec.path("egress").size(), "NetworkPolicy " + name + " allows egress from the servers");
            for (JsonNode rule : spec.path("ingress")) {
                assertFalse(rule.path("from").isEmpty(), "NetworkPolicy " + name + " admits any source: " + rule);
                for (JsonNode peer : rule.path("from")) {
                    boolean theLoadBalancer = peer.path("namespaceSelector").isMissingNode()
                            && selects(peer.path("podSelector"), haproxy);
                    // Prometheus, wherever it runs, and only pods that say they are Prometheus.
                    boolean prometheus = "prometheus".equals(peer.path("podSelector").path("matchLabels")
                            .path("app.kubernetes.io/name").asString(""));
                    assertTrue(peer.path("ipBlock").isMissingNode() && !peer.path("podSelector").isMissingNode()
                            && (theLoadBalancer || prometheus),
                            "NetworkPolicy " + name + " admits more than the HAProxy and Prometheus pods: " + peer);
                }
                assertFalse(rule.path("ports").isEmpty(), "NetworkPolicy " + name + " admits every port: " + rule);
                for (JsonNode port : rule.path("ports")) {
                    assertEquals("8080", port.path("port").asString(), "NetworkPolicy " + name + ": " + port);
                }
            }
        }
        assertTrue(governing >= 1);
    }

    @Test
    void serversRunHttpModeAsNonRootAndDrainLongEnough() {
        JsonNode set = object("StatefulSet", "sandbox");
        JsonNode spec = set.path("spec");
        assertTrue(spec.path("replicas").asInt() >= 2, "at least two replicas: " + spec.path("replicas"));
        assertEquals("Parallel", spec.path("podManagementPolicy").asString());
        assertEquals("sandbox", spec.path("serviceName").asString());
        JsonNode pod = spec.path("template").path("spec");
        assertTrue(pod.path("terminationGracePeriodSeconds").asInt() >= DRAIN_SECONDS,
                "calls in flight may run 300 s plus the kill grace after SIGTERM: " + pod.path("terminationGracePeriodSeconds"));
        assertFalse(pod.path("automountServiceAccountToken").asBoolean(true), "the server needs no API token");
        JsonNode container = container(pod, "server");

        List<String> command = new ArrayList<>(strings(container.path("command")));
        command.addAll(strings(container.path("args")));
        for (String flag : List.of("--transport=http", "--http.host=0.0.0.0", "--http.port=8080",
                "--http.tokens-file=/etc/python-sandbox-mcp/tokens", "--worker.os-sandbox=required")) {
            assertTrue(command.contains(flag), "the server runs with " + flag + ": " + command);
        }
        assertFalse(command.stream().anyMatch(a -> a.startsWith("--http.auth=") && !a.equals("--http.auth=token")),
                "token authentication stays on: " + command);

        JsonNode podSecurity = pod.path("securityContext");
        JsonNode security = container.path("securityContext");
        assertTrue(security.path("runAsNonRoot").asBoolean(podSecurity.path("runAsNonRoot").asBoolean(false)),
                "runAsNonRoot: " + security + " " + podSecurity);
        long user = security.path("runAsUser").asLong(podSecurity.path("runAsUser").asLong(0));
        assertTrue(user > 0, "a fixed non-root user: " + user);
        assertFalse(security.path("allowPrivilegeEscalation").asBoolean(true), "allowPrivilegeEscalation: " + security);
        assertFalse(security.path("privileged").asBoolean(false), "privileged: " + security);
        assertTrue(strings(security.path("capabilities").path("drop")).contains("ALL"), "capabilities: " + security);
        assertTrue(security.path("readOnlyRootFilesystem").asBoolean(false), "readOnlyRootFilesystem: " + security);
        // bubblewrap makes namespaces and mounts /proc: the runtime's default seccomp profile forbids that.
        String seccomp = security.path("seccompProfile").path("type").asString(
                podSecurity.path("seccompProfile").path("type").asString(""));
        assertTrue(Set.of("Unconfined", "Localhost").contains(seccomp), "a seccomp profile bubblewrap can run under: " + seccomp);

        assertEquals("/readyz", container.path("readinessProbe").path("httpGet").path("path").asString(), container.toString());
        assertEquals("/healthz", container.path("livenessProbe").path("httpGet").path("path").asString(), container.toString());
        assertFalse(container.path("resources").path("limits").path("memory").isMissingNode(), "a memory limit");

        String tokensVolume = null;
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("mountPath").asString().equals("/etc/python-sandbox-mcp")) {
                tokensVolume = mount.path("name").asString();
                assertTrue(mount.path("readOnly").asBoolean(false), "the tokens are mounted read-only");
            }
        }
        assertTrue(tokensVolume != null, "the tokens file is mounted at /etc/python-sandbox-mcp");
        for (JsonNode volume : pod.path("volumes")) {
            if (volume.path("name").asString().equals(tokensVolume)) {
                JsonNode secret = object("Secret", volume.path("secret").path("secretName").asString());
                assertTrue(secret.path("stringData").has("tokens") || secret.path("data").has("tokens"),
                        "the Secret has a 'tokens' key: " + secret.path("metadata"));
            }
        }

        JsonNode service = object("Service", "sandbox");
        assertEquals("None", service.path("spec").path("clusterIP").asString(), "the Service sandbox is headless");
        assertTrue(contains(labels(spec.path("template")), stringMap(service.path("spec").path("selector"))));
        boolean budget = all("PodDisruptionBudget").stream()
                .anyMatch(pdb -> selects(pdb.path("spec").path("selector"), labels(spec.path("template"))));
        assertTrue(budget, "a PodDisruptionBudget covers the servers");
    }

    @Test
    void haproxyPinsSessionsBySessionIdWithBuffersBigEnoughToSeeIt() throws IOException {
        JsonNode configMap = generated("ConfigMap", "sandbox-haproxy");
        String config = configMap.path("data").path("haproxy.cfg").asString();
        assertEquals(Files.readString(ROOT.resolve("deploy/kubernetes/haproxy.cfg"), StandardCharsets.UTF_8), config,
                "the ConfigMap carries deploy/kubernetes/haproxy.cfg, the file haproxy -c checked");
        Map<String, List<String>> sections = sections(config);

        long bufsize = Long.parseLong(single(sections.get("global"), "tune.bufsize"));
        assertTrue(bufsize >= 2_097_152, "req.body sees one buffer: session_id after 1 MiB of code needs 2 MiB: " + bufsize);
        assertTrue(anyLine(sections, "option http-buffer-request"), "the body is buffered before routing");
        assertTrue(timeout(sections.get("defaults"), "server") > DRAIN_SECONDS, "timeout server > " + DRAIN_SECONDS);
        assertTrue(timeout(sections.get("defaults"), "client") > DRAIN_SECONDS, "timeout client > " + DRAIN_SECONDS);

        List<String> frontend = sections.get("frontend mcp");
        assertTrue(frontend.stream().anyMatch(l -> l.startsWith("http-request set-var(txn.sid)")
                && l.contains("req.hdr(mcp-param-session-id)")), "the 2026-07-28 header first: " + frontend);
        assertTrue(frontend.stream().anyMatch(l -> l.startsWith("http-request set-var(txn.sid)")
                && l.contains("json_query('$.params.arguments.session_id')")), "then the body: " + frontend);
        assertTrue(frontend.contains("use_backend by_session if { var(txn.sid) -m found }"), frontend.toString());

        List<String> bySession = sections.get("backend by_session");
        assertTrue(bySession.contains("balance hash var(txn.sid)"), bySession.toString());
        assertTrue(bySession.contains("hash-type consistent"), bySession.toString());
        assertTrue(sections.get("backend any").contains("balance leastconn"), sections.get("backend any").toString());
        assertTrue(sections.containsKey("resolvers k8s"), "a resolvers section for the cluster DNS");
        assertTrue(anyLine(sections, "default-server") && single(sections.get("defaults"), "default-server").contains("resolvers k8s"),
                "servers are resolved through the cluster DNS");
        for (String backend : List.of("backend by_session", "backend any")) {
            List<String> lines = sections.get(backend);
            assertTrue(lines.contains("option httpchk GET /readyz"), backend + " checks /readyz: " + lines);
            Map<String, String> ids = new LinkedHashMap<>();
            Pattern server = Pattern.compile("server (sandbox-\\d+) \"(sandbox-\\d+)\\.sandbox\\.[^\"]+:8080\" id (\\d+).*");
            for (String line : lines) {
                Matcher m = server.matcher(line);
                if (line.startsWith("server ")) {
                    assertTrue(m.matches(), backend + ": a server slot with an explicit id: " + line);
                    assertEquals(m.group(1), m.group(2), line);
                    ids.put(m.group(1), m.group(3));
                }
            }
            assertEquals(List.of("sandbox-0", "sandbox-1", "sandbox-2", "sandbox-3"), List.copyOf(ids.keySet()), backend);
            assertEquals(List.of("1", "2", "3", "4"), List.copyOf(ids.values()), backend + ": fixed ids, one ring on every replica");
        }

        JsonNode deployment = object("Deployment", "sandbox-haproxy");
        JsonNode pod = deployment.path("spec").path("template").path("spec");
        JsonNode container = container(pod, "haproxy");
        assertTrue(container.path("image").asString().startsWith("haproxy:2.6"), container.path("image").asString());
        assertEquals(2, deployment.path("spec").path("replicas").asInt());
        String configMapName = configMap.path("metadata").path("name").asString();
        assertTrue(pod.path("volumes").values().stream()
                .anyMatch(v -> v.path("configMap").path("name").asString().equals(configMapName)),
                "HAProxy mounts the ConfigMap " + configMapName);
        assertTrue(container.path("securityContext").path("runAsNonRoot").asBoolean(
                pod.path("securityContext").path("runAsNonRoot").asBoolean(false)), "HAProxy runs as non-root");
    }

    /** deploy/kubernetes-oauth: the same objects, the servers an OAuth resource server with an audit log. */
    @Test
    void theOAuthOverlayRunsTheServersAsAnOAuthResourceServer() throws IOException {
        List<JsonNode> overlay = new ArrayList<>(JSON.readTree(RENDERED_OAUTH).values());
        assertEquals(objects.size(), overlay.size(), "the overlay changes the servers' arguments only");
        JsonNode set = overlay.stream().filter(o -> o.path("kind").asString().equals("StatefulSet")).findFirst().orElseThrow();
        List<String> args = strings(container(set.path("spec").path("template").path("spec"), "server").path("args"));
        for (String flag : List.of("--transport=http", "--http.auth=oauth", "--http.public-url=https://sandbox.example.com/mcp",
                "--audit.log=stderr", "--worker.os-sandbox=required")) {
            assertTrue(args.contains(flag), "the server runs with " + flag + ": " + args);
        }
        assertTrue(args.stream().anyMatch(a -> a.startsWith("--http.oauth.issuer=https://")), args.toString());
        assertFalse(args.stream().anyMatch(a -> a.startsWith("--http.tokens-file")), args.toString());
    }

    // --- reading the rendered objects ------------------------------------------------------------------------

    private static JsonNode object(String kind, String name) {
        return objects.stream()
                .filter(o -> o.path("kind").asString().equals(kind) && o.path("metadata").path("name").asString().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " in " + RENDERED));
    }

    /** A generated object: kustomize appends a hash of the content to the name. */
    private static JsonNode generated(String kind, String name) {
        return objects.stream()
                .filter(o -> o.path("kind").asString().equals(kind)
                        && o.path("metadata").path("name").asString().matches(Pattern.quote(name) + "-[a-z0-9]{10}"))
                .findFirst().orElseThrow(() -> new AssertionError("no generated " + kind + " " + name + "-HASH in " + RENDERED));
    }

    private static List<JsonNode> all(String kind) {
        return objects.stream().filter(o -> o.path("kind").asString().equals(kind)).toList();
    }

    private static JsonNode container(JsonNode podSpec, String name) {
        for (JsonNode container : podSpec.path("containers")) {
            if (container.path("name").asString().equals(name)) {
                return container;
            }
        }
        throw new AssertionError("no container " + name + " in " + podSpec.path("containers"));
    }

    private static Map<String, String> labels(JsonNode template) {
        return stringMap(template.path("metadata").path("labels"));
    }

    private static Map<String, String> stringMap(JsonNode node) {
        Map<String, String> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            map.put(entry.getKey(), entry.getValue().asString());
        }
        return map;
    }

    private static List<String> strings(JsonNode array) {
        List<String> list = new ArrayList<>();
        for (JsonNode item : array) {
            list.add(item.asString());
        }
        return list;
    }

    /** Whether a label selector (matchLabels only: matchExpressions are not evaluated here) selects these labels. */
    private static boolean selects(JsonNode selector, Map<String, String> labels) {
        if (selector.has("matchExpressions") && !selector.path("matchExpressions").isEmpty()) {
            fail("matchExpressions are not evaluated by this test: " + selector);
        }
        return contains(labels, stringMap(selector.path("matchLabels")));
    }

    private static boolean contains(Map<String, String> labels, Map<String, String> wanted) {
        return labels.entrySet().containsAll(wanted.entrySet());
    }

    // --- reading haproxy.cfg -----------------------------------------------------------------------------------

    /** Lines per section ("global", "defaults", "frontend mcp", ...), comments and indentation removed. */
    private static Map<String, List<String>> sections(String config) {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        for (String raw : config.split("\n")) {
            String line = raw.replaceFirst("(^|\\s)#.*$", "").strip().replaceAll("\\s+", " ");
            if (line.isEmpty()) {
                continue;
            }
            if (!Character.isWhitespace(raw.charAt(0))) {
                current = new ArrayList<>();
                sections.put(line, current);
            } else if (current != null) {
                current.add(line);
            }
        }
        return sections;
    }

    private static boolean anyLine(Map<String, List<String>> sections, String prefix) {
        return sections.values().stream().flatMap(List::stream).anyMatch(l -> l.equals(prefix) || l.startsWith(prefix + " "));
    }

    /** The rest of the one line starting with keyword. */
    private static String single(List<String> lines, String keyword) {
        Set<String> found = new TreeSet<>();
        for (String line : lines) {
            if (line.startsWith(keyword + " ")) {
                found.add(line.substring(keyword.length() + 1));
            }
        }
        assertEquals(1, found.size(), "one '" + keyword + "' line in " + lines);
        return found.iterator().next();
    }

    /** An HAProxy timeout in seconds (its default unit is the millisecond). */
    private static double timeout(List<String> lines, String which) {
        Matcher m = Pattern.compile("(\\d+)(us|ms|s|m|h|d)?").matcher(single(lines, "timeout " + which));
        assertTrue(m.matches(), "timeout " + which);
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2) == null ? "ms" : m.group(2)) {
            case "us" -> value / 1e6;
            case "ms" -> value / 1e3;
            case "s" -> value;
            case "m" -> value * 60;
            case "h" -> value * 3600;
            default -> value * 86400;
        };
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
