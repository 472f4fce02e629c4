package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.pysandbox.wire.WireCodec;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * JavaScript through a real client (issue 41): the agent corpus prints what Node printed, errors and `result` come
 * back as Node and Python's side show them, sessions keep one language, and the isolation holds against the
 * JavaScript counterpart of the attack suite, without a session and with one.
 */
class JavaScriptIT {
    private static final Path CORPUS = SandboxServer.PROJECT_ROOT.resolve("bench/agent-corpus-js");
    private static final String ENV_NAME = "PYSANDBOX_JS_CANARY";
    private static final String ENV_SECRET = "env-secret-" + UUID.randomUUID();
    private static final Path SECRET_FILE = SandboxServer.PROJECT_ROOT.resolve("target/js-canary/secret.txt");
    private static final String FILE_SECRET = "file-secret-" + UUID.randomUUID();
    private static SandboxServer server;

    @BeforeAll
    static void start() throws IOException {
        Files.createDirectories(SECRET_FILE.getParent());
        Files.writeString(SECRET_FILE, FILE_SECRET);
        server = SandboxServer.start(Map.of(ENV_NAME, ENV_SECRET), "--workers=2");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> js(String code) {
        return server.execute(Map.of("language", "javascript", "code", code));
    }

    private static Map<String, Object> js(String code, String session) {
        return server.execute(Map.of("language", "javascript", "code", code, "session_id", session));
    }

    static Stream<Named<Path>> corpus() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
            return files.filter(f -> f.toString().endsWith(".js")).sorted()
                    .map(f -> Named.of(f.getFileName().toString(), f)).toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void everyAgentSnippetPrintsWhatNodePrinted(Path snippet) throws IOException {
        Map<String, Object> result = js(Files.readString(snippet));
        assertEquals("success", result.get("status"), () -> WireCodec.encode(result));
        String node = Files.readString(Path.of(snippet.toString().replaceAll("\\.js$", ".out")));
        assertEquals(node, result.get("stdout"));
    }

    @Test
    void theLanguageIsNamedJavascriptOrJsInAnyCaseAndAnyOtherIsRefusedNamingBoth() {
        for (String name : List.of("javascript", "JavaScript", "js", " JS ")) {
            Map<String, Object> result = server.execute(Map.of("language", name, "code", "console.log(typeof 1n)"));
            assertEquals("bigint\n", result.get("stdout"), name + ": " + result);
        }
        Map<String, Object> ruby = server.execute(Map.of("language", "ruby", "code", "puts 1"));
        assertEquals("setup_error", ruby.get("status"));
        assertTrue(String.valueOf(ruby.get("error_message")).contains("'python' and 'javascript'"), ruby::toString);
    }

    @Test
    void anUncaughtErrorIsAnExecutionErrorWithTheErrorsNameAndItsStackOnStderr() {
        Map<String, Object> result = js("const user = undefined;\nconsole.log('start');\nconsole.log(user.name);");
        assertEquals("execution_error", result.get("status"), result::toString);
        assertEquals(1, ((Number) result.get("exit_code")).intValue());
        assertTrue(String.valueOf(result.get("error_message")).startsWith("TypeError: "), result::toString);
        assertEquals("start\n", result.get("stdout"));
        assertTrue(String.valueOf(result.get("stderr")).contains("at [eval]:3"), result::toString);
    }

    @Test
    void resultComesBackAsJson() {
        Map<String, Object> result = js("const xs = [3, 1, 2].sort(); result = {sorted: xs, max: Math.max(...xs)};");
        assertEquals(Map.of("sorted", List.of(1, 2, 3), "max", 3), result.get("result"), result::toString);
    }

    @Test
    void aSessionKeepsItsGlobalsAndItsLanguage() {
        String id = "js-" + UUID.randomUUID();
        assertEquals("success", js("const seen = new Set(['a']); var count = 1;", id).get("status"));
        Map<String, Object> later = js("seen.add('b'); count += 1; console.log([...seen].join(''), count)", id);
        assertEquals("ab 2\n", later.get("stdout"), later::toString);
        Map<String, Object> python = server.execute(Map.of("language", "python", "code", "print(count)", "session_id", id));
        assertEquals("setup_error", python.get("status"), python::toString);
        assertTrue(String.valueOf(python.get("error_message")).contains("This session runs JavaScript"), python::toString);
        assertEquals("2\n", js("console.log(count)", id).get("stdout"), "the session is as it was");
    }

    @Test
    void validateCodeFindsAJavaScriptSyntaxErrorByLineAndColumnWithoutRunningIt() {
        CallToolResult answer = server.call("validate_code", Map.of("language", "javascript",
                "code", "console.log('checked');\nconst x = ;"));
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) answer.structuredContent();
        assertEquals(false, report.get("valid"), report::toString);
        @SuppressWarnings("unchecked")
        Map<String, Object> error = ((List<Map<String, Object>>) report.get("errors")).get(0);
        assertEquals(2, ((Number) error.get("line")).intValue(), report::toString);
        assertEquals("syntax", error.get("kind"));
        CallToolResult valid = server.call("validate_code", Map.of("language", "js", "code", "await 1; export {};"));
        assertEquals(true, ((Map<?, ?>) valid.structuredContent()).get("valid"), () -> SandboxServer.text(valid));
    }

    @Test
    void attackReadAHostFile() {
        for (String code : List.of("console.log(await import('" + SECRET_FILE + "'))",
                "import text from '" + SECRET_FILE + "' with { type: 'json' }; console.log(text)",
                "console.log(require('fs').readFileSync('" + SECRET_FILE + "', 'utf8'))",
                "load('" + SECRET_FILE + "')", "console.log(read('" + SECRET_FILE + "'))")) {
            Map<String, Object> result = js(code);
            assertEquals("execution_error", result.get("status"), code + ": " + result);
            assertFalse(WireCodec.encode(result).contains(FILE_SECRET), code + ": " + result);
        }
    }

    @Test
    void attackReadTheEnvironment() {
        Map<String, Object> result = js("console.log(process.env." + ENV_NAME + ")");
        assertEquals("execution_error", result.get("status"), result::toString);
        assertTrue(String.valueOf(result.get("error_message")).contains("process.env is not available here"), result::toString);
        assertFalse(WireCodec.encode(result).contains(ENV_SECRET));
    }

    @Test
    void attackReachJavaClasses() {
        for (String code : List.of("Java.type('java.lang.Runtime').getRuntime().exec('id')",
                "Packages.java.lang.System.exit(1)", "java.lang.System.getenv()",
                "globalThis['Ja' + 'va'].type('java.io.File')", "Graal.versionGraalVM")) {
            Map<String, Object> result = js(code);
            assertEquals("execution_error", result.get("status"), code + ": " + result);
            String message = String.valueOf(result.get("error_message"));
            // Gone, not refused: the name is not defined (ReferenceError), or is undefined when looked up (TypeError).
            assertTrue(message.startsWith("ReferenceError: ") || message.startsWith("TypeError: "), code + ": " + result);
        }
    }

    @Test
    void attackReachThePythonContextNextDoor() {
        for (String code : List.of("Polyglot.eval('python', 'import os; os.system(\"id\")')",
                "Polyglot.import('x')", "new (Function('return this')()).Polyglot")) {
            Map<String, Object> result = js(code);
            assertEquals("execution_error", result.get("status"), code + ": " + result);
        }
    }

    @Test
    void attackPolluteThePrototypesForTheNextCall() {
        js("Object.prototype.polluted = 'yes'; Array.prototype.map = () => 'poisoned'; JSON.stringify = () => 'x';"
                + " globalThis.console.log = () => {};");
        Map<String, Object> next = js("console.log(({}).polluted, [1, 2].map(x => x * 2), JSON.stringify({a: 1}))");
        assertEquals("undefined [ 2, 4 ] {\"a\":1}\n", next.get("stdout"), next::toString);
    }

    @Test
    void attackReadAnotherSessionsGlobals() {
        String secret = "SESSION-SECRET-" + UUID.randomUUID();
        String victim = "victim-" + UUID.randomUUID();
        js("var kept = '" + secret + "'; Object.prototype.leak = kept;", victim);
        Map<String, Object> spy = js("console.log(typeof kept, ({}).leak, Object.keys(globalThis).join(','))",
                "spy-" + UUID.randomUUID());
        assertEquals("success", spy.get("status"), spy::toString);
        assertFalse(WireCodec.encode(spy).contains(secret), WireCodec.encode(spy));
        Map<String, Object> fresh = js("console.log(typeof kept, ({}).leak)");
        assertEquals("undefined undefined\n", fresh.get("stdout"), fresh::toString);
        assertEquals("string\n", js("console.log(typeof kept)", victim).get("stdout"), "the victim keeps its own");
    }

    @Test
    void attackExhaustTheMemory() {
        Map<String, Object> result = server.execute(Map.of("language", "javascript", "timeout", 120,
                "code", "const keep = []; while (true) keep.push(new Array(1e6).fill(1.5));"));
        assertEquals("execution_error", result.get("status"), result::toString);
    }

    @Test
    void attackOverflowTheStack() {
        Map<String, Object> result = js("function deeper(n) { return deeper(n + 1) + 1; } deeper(0);");
        assertEquals("execution_error", result.get("status"), result::toString);
        assertTrue(String.valueOf(result.get("error_message")).startsWith("RangeError: "), result::toString);
    }

    @Test
    void attackLoopForEverInCodeInAPromiseAndInATimer() {
        for (String code : List.of("while (true) {}", "Promise.resolve().then(() => { while (true) {} })",
                "setTimeout(function again() { setTimeout(again, 0); }, 0)", "for (;;) { try { for (;;) {} } catch {} }")) {
            Map<String, Object> result = server.execute(Map.of("language", "javascript", "code", code, "timeout", 2));
            assertEquals("timeout", result.get("status"), code + ": " + result);
        }
    }

    @Test
    void attackFloodTheOutputInManyLinesOrOneHugeOne() {
        Map<String, Object> result = js("const line = 'x'.repeat(1000); for (;;) console.log(line);");
        assertEquals("execution_error", result.get("status"), result::toString);
        assertTrue(String.valueOf(result.get("error_message")).contains("Output limit exceeded"), result::toString);
        assertTrue(String.valueOf(result.get("stdout")).startsWith("xxxx"), "the output so far is kept");
        Map<String, Object> huge = js("console.log('y'.repeat(50_000_000))");
        assertEquals("execution_error", huge.get("status"), huge::toString);
        assertTrue(String.valueOf(huge.get("error_message")).contains("Output limit exceeded"), huge::toString);
        assertTrue(WireCodec.encode(huge).length() < 1_000_000, "the answer stays bounded");
    }

    @Test
    void partialOutputSurvivesATimeout() {
        Map<String, Object> result = server.execute(Map.of("language", "javascript", "timeout", 1,
                "code", "console.log('before'); while (true) {}"));
        assertEquals("timeout", result.get("status"), result::toString);
        assertEquals("before\n", result.get("stdout"));
    }

    @AfterEach
    void serverStillAnswersInBothLanguages() {
        assertEquals("alive\n", js("console.log('alive')").get("stdout"), "the server must survive");
        assertEquals("alive\n", server.python("print('alive')").get("stdout"), "and Python with it");
    }

    @Test
    void argumentsOfOtherTypesAreRefusedClearly() {
        Map<String, Object> arguments = new HashMap<>(Map.of("language", "javascript", "code", 42));
        CallToolResult answer = server.call("execute_code", arguments);
        assertTrue(Boolean.TRUE.equals(answer.isError()), () -> SandboxServer.text(answer));
    }
}
