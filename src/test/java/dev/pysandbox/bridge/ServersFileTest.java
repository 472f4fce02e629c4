package dev.pysandbox.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.bridge.ServerEntry.Kind;
import dev.pysandbox.config.ConfigException;

class ServersFileTest {
    private static final String RECURSION = "code mode must not call its own server (recursion)";
    private static final SelfReference SELF = SelfReference.of(Path.of("/opt/sandbox/bin/launch"),
            Path.of("/opt/sandbox/lib/sandbox-server.jar"));

    @TempDir
    Path dir;

    private static ServersFile parse(String json, Map<String, String> env) throws ConfigException {
        return ServersFile.parse(json, "servers.json", env, SELF);
    }

    private static ServersFile parse(String json) throws ConfigException {
        return parse(json, Map.of());
    }

    /** One server named "s" with the given members, e.g. {@code "command": "x"}. */
    private static String one(String members) {
        return "{\"mcpServers\": {\"s\": {" + members + "}}}";
    }

    private static String error(String json) {
        return error(json, Map.of());
    }

    private static String error(String json, Map<String, String> env) {
        String message = assertThrows(ConfigException.class, () -> parse(json, env)).getMessage();
        assertTrue(message.startsWith("code-mode.servers: "), message);
        assertFalse(message.contains("\n"), message);
        return message;
    }

    @Test
    void claudeDesktopShapeFromFile() throws IOException, ConfigException {
        Path file = dir.resolve("claude_desktop_config.json");
        Files.writeString(file, """
                {"mcpServers": {
                  "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"],
                                 "env": {"API_KEY": "${EVERYTHING_KEY}", "MODE": "fast"}, "cwd": "/srv/mcp",
                                 "tools": ["echo", "get-*"], "denyTools": ["get-env"]},
                  "second": {"command": "uvx", "args": ["mcp-server-time"]}
                }}""");
        ServersFile servers = ServersFile.read(file, Map.of("EVERYTHING_KEY", "k-123"), SELF);
        assertEquals(List.of(), servers.warnings());
        assertEquals(List.of("everything", "second"), servers.servers().stream().map(ServerEntry::name).toList());
        ServerEntry everything = servers.servers().get(0);
        assertEquals(Kind.STDIO, everything.kind());
        assertEquals("npx", everything.command());
        assertEquals(List.of("-y", "@modelcontextprotocol/server-everything"), everything.args());
        assertEquals(Map.of("API_KEY", "k-123", "MODE", "fast"), everything.env());
        assertEquals(List.of("API_KEY", "MODE"), List.copyOf(everything.env().keySet()));
        assertEquals(Path.of("/srv/mcp"), everything.cwd());
        assertEquals(List.of("echo", "get-*"), everything.tools());
        assertEquals(List.of("get-env"), everything.denyTools());
        assertNull(everything.url());
        assertNull(everything.timeout());
        assertFalse(everything.disabled());
        assertFalse(everything.toString().contains("k-123"), "secrets stay out of logs");
    }

    @Test
    void claudeCodeShapeWithHttpUrlAndHeaders() throws ConfigException {
        ServersFile servers = parse("""
                {"mcpServers": {
                  "remote": {"type": "http", "url": "https://mcp.example.com/mcp",
                             "headers": {"Authorization": "Bearer ${REMOTE_TOKEN:-none}"},
                             "tools": ["search_*"], "timeout": 20000},
                  "events": {"type": "sse", "url": "http://localhost:8080/sse"},
                  "inferred": {"url": "https://x.example/mcp"},
                  "streamable": {"type": "streamable-http", "url": "https://y.example/mcp"}
                }}""", Map.of("REMOTE_TOKEN", "t0k"));
        ServerEntry remote = servers.servers().get(0);
        assertEquals(Kind.HTTP, remote.kind());
        assertEquals(URI.create("https://mcp.example.com/mcp"), remote.url());
        assertEquals(Map.of("Authorization", "Bearer t0k"), remote.headers());
        assertEquals(Duration.ofMillis(20000), remote.timeout());
        assertNull(remote.command());
        assertEquals(Kind.SSE, servers.servers().get(1).kind());
        assertEquals(Kind.HTTP, servers.servers().get(2).kind());
        assertEquals(Kind.HTTP, servers.servers().get(3).kind());
    }

    @Test
    void vsCodeServersAliasIsAccepted() throws ConfigException {
        ServersFile servers = parse("""
                {"servers": {"time": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time"]}}}""");
        assertEquals("time", servers.servers().get(0).name());
        assertEquals(List.of(), servers.warnings());
    }

    @Test
    void placeholdersExpandWithShellMeaning() throws ConfigException {
        ServerEntry entry = parse(one("""
                "command": "${BIN}/run", "args": ["--user=${USER_NAME:-nobody}", "${EMPTY:-fallback}", "${EMPTY}x",
                "${SET:-unused}", "$HOME ${bad-name} ${input:key}"],
                "env": {"A": "${SET}"}, "cwd": "${MISSING:-/tmp}"
                """), Map.of("BIN", "/usr/local/bin", "EMPTY", "", "SET", "yes")).servers().get(0);
        assertEquals("/usr/local/bin/run", entry.command());
        assertEquals(List.of("--user=nobody", "fallback", "x", "yes", "$HOME ${bad-name} ${input:key}"),
                entry.args());
        assertEquals(Map.of("A", "yes"), entry.env());
        assertEquals(Path.of("/tmp"), entry.cwd());
    }

    @Test
    void unsetVariableWithoutDefaultNamesServerAndKey() {
        String message = error("""
                {"mcpServers": {"remote": {"url": "https://x.example/mcp",
                  "headers": {"Authorization": "Bearer ${REMOTE_TOKEN}"}}}}""");
        assertEquals("code-mode.servers: server 'remote': headers.Authorization uses ${REMOTE_TOKEN}, which is"
                + " not set", message);
        assertTrue(error(one("\"command\": \"x\", \"args\": [\"a\", \"${NOPE}\"]")).contains("args[1]"));
        assertTrue(error(one("\"command\": \"x\", \"env\": {\"K\": \"${NOPE}\"}")).contains("env.K"));
    }

    @Test
    void disabledServerIsKeptAndMayUseUnsetVariables() throws ConfigException {
        ServerEntry entry = parse(one("\"command\": \"x\", \"env\": {\"K\": \"${NOPE}\"}, \"disabled\": true"))
                .servers().get(0);
        assertTrue(entry.disabled());
        assertEquals(Map.of("K", "${NOPE}"), entry.env());
    }

    @Test
    void unknownServerKeyIsAWarning() throws ConfigException {
        ServersFile servers = parse("""
                {"mcpServers": {"x": {"command": "run", "foo": 1, "description": "fine", "url": "http://h/"}}}""");
        assertEquals(1, servers.servers().size());
        assertEquals(List.of("code-mode.servers: server 'x': unknown key 'foo' ignored",
                "code-mode.servers: server 'x': key 'url' ignored for a stdio server"), servers.warnings());
    }

    @Test
    void unknownTopLevelKeyIsAWarning() throws ConfigException {
        ServersFile servers = parse("{\"globalShortcut\": \"\", \"mcpServers\": {\"x\": {\"command\": \"run\"}}}");
        assertEquals(1, servers.servers().size());
        assertEquals(1, servers.warnings().size());
        assertTrue(servers.warnings().get(0).contains("'globalShortcut'"), servers.warnings().toString());
    }

    @Test
    void missingOrWrongServersObjectIsAnError() {
        assertTrue(error("{\"other\": {}}").contains("mcpServers"));
        assertTrue(error("{\"mcpServers\": []}").contains("mcpServers"));
        assertTrue(error("[]").contains("servers.json"));
        assertTrue(error("").contains("empty"));
        assertTrue(error("{\"mcpServers\": {\"x\": \"run\"}}").contains("server 'x'"));
    }

    @Test
    void badServerNamesAreErrors() {
        for (String name : List.of("a.b", "has space", "x".repeat(33), "")) {
            String message = error("{\"mcpServers\": {\"" + name + "\": {\"command\": \"run\"}}}");
            assertTrue(message.contains("'" + name + "'"), message);
        }
    }

    @Test
    void longestAllowedNameIsFine() throws ConfigException {
        String name = "A_-9".repeat(8);
        assertEquals(name, parse("{\"mcpServers\": {\"" + name + "\": {\"command\": \"run\"}}}")
                .servers().get(0).name());
    }

    @Test
    void missingCommandIsAnError() {
        assertTrue(error(one("\"type\": \"stdio\"")).contains("'command'"));
        assertTrue(error(one("\"command\": \"  \"")).contains("'command'"));
        assertTrue(error(one("\"args\": [\"x\"]")).contains("'command'"));
    }

    @Test
    void badTypeIsAnError() {
        assertTrue(error(one("\"type\": \"websocket\", \"url\": \"https://h/\"")).contains("'websocket'"));
    }

    @Test
    void remoteServerNeedsHttpUrl() {
        assertTrue(error(one("\"type\": \"http\"")).contains("'url'"));
        assertTrue(error(one("\"url\": \"ftp://h/mcp\"")).contains("http"));
        assertTrue(error(one("\"type\": \"sse\", \"url\": \"file:///etc/passwd\"")).contains("http"));
        assertTrue(error(one("\"url\": \"not a url\"")).contains("'url'"));
    }

    @Test
    void urlErrorDoesNotRevealExpandedSecret() {
        String message = error(one("\"url\": \"${SECRET}\""), Map.of("SECRET", "ftp://user:pw@h/"));
        assertFalse(message.contains("pw"), message);
        assertTrue(message.contains("${SECRET}"), message);
    }

    @Test
    void wrongTypesNameTheKey() {
        Map<String, String> cases = Map.of(
                "\"command\": 1", "'command'",
                "\"command\": \"x\", \"args\": \"-y\"", "'args'",
                "\"command\": \"x\", \"args\": [1]", "'args'",
                "\"command\": \"x\", \"env\": {\"PORT\": 8080}", "'env.PORT'",
                "\"command\": \"x\", \"env\": [\"A=b\"]", "'env'",
                "\"url\": \"https://h/\", \"headers\": \"Authorization: x\"", "'headers'",
                "\"command\": \"x\", \"tools\": \"echo\"", "'tools'",
                "\"command\": \"x\", \"denyTools\": [true]", "'denyTools'",
                "\"command\": \"x\", \"disabled\": \"yes\"", "'disabled'");
        cases.forEach((members, key) -> {
            String message = error(one(members));
            assertTrue(message.contains("server 's'") && message.contains(key), message);
        });
        for (String timeout : List.of("0", "-5", "1.5", "\"20000\"")) {
            assertTrue(error(one("\"command\": \"x\", \"timeout\": " + timeout)).contains("'timeout'"), timeout);
        }
    }

    @Test
    void malformedJsonNamesTheOrigin() {
        String message = error("{\"mcpServers\": {\"x\": {\"command\": \"run\",}}");
        assertTrue(message.contains("servers.json is not valid JSON"), message);
        assertTrue(message.contains("line 1"), message);
    }

    @Test
    void duplicateServerNameIsAnError() {
        assertTrue(error("{\"mcpServers\": {\"x\": {\"command\": \"a\"}, \"x\": {\"command\": \"b\"}}}")
                .contains("not valid JSON"));
    }

    @Test
    void missingFileIsAnError() {
        String message = assertThrows(ConfigException.class,
                () -> ServersFile.read(dir.resolve("nope.json"), Map.of(), SELF)).getMessage();
        assertTrue(message.contains("nope.json"), message);
    }

    @Test
    void refusesSelfByLauncherPath() {
        String message = error("{\"mcpServers\": {\"me\": {\"command\": \"/opt/sandbox/bin/launch\"}}}");
        assertEquals("code-mode.servers: server 'me' launches python-sandbox-mcp itself; code mode must not call"
                + " its own server (recursion). Remove it from the file.", message);
    }

    @Test
    void refusesSelfByJarFileName() {
        assertTrue(error(one("\"command\": \"java\", \"args\": [\"-jar\", \"/elsewhere/sandbox-server.jar\"]"))
                .contains(RECURSION));
        assertTrue(error(one("\"command\": \"java\", \"args\": [\"-cp\", \"a.jar:./sandbox-server.jar\", \"M\"]"))
                .contains(RECURSION));
        assertTrue(error(one("\"command\": \"${DIR}/launch\""), Map.of("DIR", "/any")).contains(RECURSION));
    }

    @Test
    void refusesSelfByName() {
        assertTrue(error(one("\"command\": \"npx\", \"args\": [\"-y\", \"python-sandbox-mcp\"]"))
                .contains(RECURSION));
        assertTrue(error(one("\"command\": \"/usr/local/bin/Python-Sandbox-MCP\"")).contains(RECURSION));
        assertTrue(error(one("\"command\": \"docker\", \"args\": [\"run\", \"-i\", \"ghcr.io/x/python-sandbox-mcp:1\"]"))
                .contains(RECURSION));
    }

    @Test
    void javaWithUnrelatedJarIsNotSelf() throws ConfigException {
        SelfReference self = SelfReference.of(Path.of("/usr/lib/jvm/bin/java"), Path.of("/opt/sandbox/app.jar"));
        ServersFile servers = ServersFile.parse(
                one("\"command\": \"/usr/lib/jvm/bin/java\", \"args\": [\"-jar\", \"/srv/other-mcp.jar\"]"),
                "servers.json", Map.of(), self);
        assertEquals("/usr/lib/jvm/bin/java", servers.servers().get(0).command());
    }

    @Test
    void aServerThatOnlyLivesInAFolderOfOurNameIsNotSelf() throws ConfigException {
        ServersFile servers = parse(one("\"command\": \"/opt/python-sandbox-mcp/tools/other-server\","
                + " \"args\": [\"-cp\", \"/home/me/python-sandbox-mcp/target/classes:/x/lib.jar\", \"Main\"]"));
        assertEquals(1, servers.servers().size());
    }

    @Test
    void remoteServerIsNeverCheckedForSelf() throws ConfigException {
        assertEquals(1, parse(one("\"url\": \"https://python-sandbox-mcp.example/mcp\"")).servers().size());
    }
}
