package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import dev.pysandbox.wire.WireCodec;

/**
 * Code mode end to end (issue 13): our server, launched as a user would, calls the tools of a downstream MCP
 * server ({@link StubMcpServer}, a child process) for guest code, through the MCP Java SDK's client. Each
 * DOC-029 layer is tried the way an agent's code would trip it, and checked in the supervisor's record
 * ({@code tool_calls}) as well as in what the code saw.
 */
class CodeModeIT {
    private static final String SECRET_NAME = "CODE_MODE_PLANTED_SECRET";
    private static final String WORKER_TAG = "pysandbox.code-mode-it=" + ProcessHandle.current().pid();

    /** The tool lists the server announced with notifications/tools/list_changed. */
    private static final List<List<Tool>> TOOL_LISTS = new java.util.concurrent.CopyOnWriteArrayList<>();

    @TempDir
    static Path temp;
    private static SandboxServer server;

    @BeforeAll
    static void start() throws IOException {
        Map<String, Object> fragile = stub("fragile", List.of("crash", "echo", "slow"), List.of());
        fragile.put("timeout", 1500); // ms per tool call, the servers file's own key
        Path servers = serversFile(temp, "servers.json", stub("stub", List.of("*"), List.of("pid")), fragile);
        // The secret is in our server's environment: a downstream tool that prints its own must not show it.
        server = SandboxServer.start(Map.of(SECRET_NAME, "hunter2"), spec -> spec.toolsChangeConsumer(TOOL_LISTS::add),
                "--code-mode.servers=" + servers, "--workers=2", "--code-mode.tool-timeout-seconds=20",
                "--worker.jvm-options=-D" + WORKER_TAG);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A servers-file entry launching the stub with this JVM's java and the build's class path. */
    static Map<String, Object> stub(String name, List<String> tools, List<String> deny, String... extraArgs) {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path root = SandboxServer.PROJECT_ROOT;
        List<String> args = new ArrayList<>(List.of("-cp", root.resolve("target/test-classes") + ":" + root.resolve("target/classes")
                + ":" + root.resolve("target/lib") + "/*", StubMcpServer.class.getName()));
        args.addAll(List.of(extraArgs));
        Map<String, Object> entry = new HashMap<>();
        entry.put("name", name);
        entry.put("command", java);
        entry.put("args", args);
        entry.put("tools", tools);
        entry.put("denyTools", deny);
        return entry;
    }

    @SafeVarargs
    static Path serversFile(Path dir, String file, Map<String, Object>... entries) throws IOException {
        Map<String, Object> servers = new HashMap<>();
        for (Map<String, Object> entry : entries) {
            Map<String, Object> copy = new HashMap<>(entry);
            servers.put((String) copy.remove("name"), copy);
        }
        Path path = dir.resolve(file);
        Files.writeString(path, WireCodec.encode(Map.of("mcpServers", servers)));
        return path;
    }

    private static Map<String, Object> run(String code, Object... extra) {
        Map<String, Object> arguments = new HashMap<>(Map.of("language", "python", "code", code));
        for (int i = 0; i < extra.length; i += 2) {
            arguments.put((String) extra[i], extra[i + 1]);
        }
        return server.execute(arguments);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> toolCalls(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("tool_calls");
    }

    private static List<Object> errors(Map<String, Object> result) {
        return toolCalls(result).stream().map(call -> call.get("error")).toList();
    }

    @Test
    void aScriptCallingThreeToolsGetsTheirCombinedResultAndThreeRecords() {
        Map<String, Object> result = run("""
                total = context.tools.call('stub.add', {'a': context.inputs['a'], 'b': 3})['sum']
                echoed = context.tools.stub.echo(text='x' * total)
                listed = context.tools.call('stub.json_text')
                result = {'total': total, 'echoed': echoed, 'items': listed['items']}
                """, "inputs", Map.of("a", 4));
        assertEquals("success", result.get("status"), result.toString());
        assertEquals(Map.of("total", 7, "echoed", "xxxxxxx", "items", List.of(1, 2, 3)), result.get("result"));
        assertEquals(List.of("stub.add", "stub.echo", "stub.json_text"),
                toolCalls(result).stream().map(call -> call.get("tool")).toList());
        assertTrue(toolCalls(result).stream().allMatch(call -> Boolean.TRUE.equals(call.get("ok"))), result.toString());
    }

    private static Map<String, Object> javascript(String code, Object... extra) {
        Map<String, Object> arguments = new HashMap<>(Map.of("language", "javascript", "code", code));
        for (int i = 0; i < extra.length; i += 2) {
            arguments.put((String) extra[i], extra[i + 1]);
        }
        return server.execute(arguments);
    }

    @Test
    void javascriptAwaitsTheSameToolsAndGetsTheSameResultsAndRecords() {
        Map<String, Object> result = javascript("""
                const { sum } = await tools.call('stub.add', { a: context.inputs.a, b: 3 });
                const echoed = await tools.stub.echo({ text: 'x'.repeat(sum) });
                const listed = await context.tools.call('stub.json_text');
                result = { total: sum, echoed, items: listed.items };
                """, "inputs", Map.of("a", 4));
        assertEquals("success", result.get("status"), result.toString());
        assertEquals(Map.of("total", 7, "echoed", "xxxxxxx", "items", List.of(1, 2, 3)), result.get("result"));
        assertEquals(List.of("stub.add", "stub.echo", "stub.json_text"),
                toolCalls(result).stream().map(call -> call.get("tool")).toList());
    }

    @Test
    void javascriptMeetsTheSameBudgetAllowListAndParameterChecksAsToolErrors() {
        Map<String, Object> budget = javascript("""
                const kinds = [];
                for (let i = 0; i < 12; i++) {
                  try { await tools.call('stub.echo', { text: String(i) }); kinds.push('ok'); }
                  catch (e) { kinds.push(e instanceof ToolError ? e.kind : String(e)); }
                }
                result = kinds;
                """);
        List<String> expected = new ArrayList<>(java.util.Collections.nCopies(10, "ok"));
        expected.addAll(List.of("limit_exceeded", "limit_exceeded"));
        assertEquals(expected, budget.get("result"), budget.toString());
        Map<String, Object> narrowed = javascript("""
                const kinds = [];
                for (const [name, params] of [['stub.echo', { text: 'a' }], ['stub.add', { a: 1, b: 2 }],
                    ['stub.pid', {}], ['stub.echo', { when: new Date(0) }]]) {
                  try { await tools.call(name, params); kinds.push('ok'); } catch (e) { kinds.push(e.kind + ' ' + e.message); }
                }
                result = kinds;
                """, "allowed_tools", List.of("stub.echo", "stub.pid"));
        @SuppressWarnings("unchecked")
        List<String> kinds = (List<String>) narrowed.get("result");
        assertEquals("ok", kinds.get(0), narrowed.toString());
        assertTrue(kinds.get(1).startsWith("not_allowed"), narrowed.toString());
        assertTrue(kinds.get(2).startsWith("not_allowed"), narrowed.toString());
        assertTrue(kinds.get(3).startsWith("invalid_params") && kinds.get(3).contains("params.when is a Date"),
                narrowed.toString());
        Map<String, Object> uncaught = javascript("await tools.stub.pid({});");
        assertEquals("execution_error", uncaught.get("status"), uncaught.toString());
        assertTrue(String.valueOf(uncaught.get("error_message")).startsWith("ToolError: [not_allowed]"),
                uncaught.toString());
    }

    @Test
    void theEleventhCallRaisesLimitExceededWhichTheScriptCanCatch() {
        Map<String, Object> result = run("""
                kinds = []
                for i in range(12):
                    try:
                        context.tools.call('stub.echo', {'text': str(i)})
                        kinds.append('ok')
                    except ToolError as e:
                        kinds.append(e.kind)
                result = kinds
                """);
        assertEquals("success", result.get("status"), result.toString());
        List<String> expected = new ArrayList<>(java.util.Collections.nCopies(10, "ok"));
        expected.addAll(List.of("limit_exceeded", "limit_exceeded"));
        assertEquals(expected, result.get("result"));
        assertEquals(12, toolCalls(result).size());
        assertEquals("limit_exceeded", errors(result).get(10));
    }

    @Test
    void maxToolCallsLowersTheBudgetButCannotRaiseItPastTheLimit() {
        Map<String, Object> lowered = run("""
                kinds = []
                for i in range(3):
                    try:
                        context.tools.call('stub.echo', {'text': 'x'}); kinds.append('ok')
                    except ToolError as e:
                        kinds.append(e.kind)
                result = kinds
                """, "max_tool_calls", 2);
        assertEquals(List.of("ok", "ok", "limit_exceeded"), lowered.get("result"), lowered.toString());
        CallToolResult raised = server.call("execute_code", Map.of("language", "python", "code", "print(1)",
                "max_tool_calls", 1000));
        assertTrue(raised.isError(), raised.toString());
        assertTrue(SandboxServer.text(raised).contains("max_tool_calls"), SandboxServer.text(raised));
    }

    @Test
    void allowedToolsNarrowsTheListButCannotWidenIt() {
        Map<String, Object> result = run("""
                kinds = []
                for name, params in (('stub.echo', {'text': 'a'}), ('stub.add', {'a': 1, 'b': 2}), ('stub.pid', {})):
                    try:
                        context.tools.call(name, params); kinds.append('ok')
                    except ToolError as e:
                        kinds.append(e.kind)
                result = kinds
                """, "allowed_tools", List.of("stub.echo", "stub.pid"));
        // echo: allowed and kept; add: allowed by the operator, narrowed away; pid: denied by the operator,
        // and naming it in allowed_tools does not allow it.
        assertEquals(List.of("ok", "not_allowed", "not_allowed"), result.get("result"), result.toString());
    }

    @Test
    void aToolOutsideTheAllowListAndADownstreamExecuteCodeAreNotAllowed() {
        Map<String, Object> result = run("""
                kinds = []
                for name in ('stub.pid', 'stub.execute_code', 'fragile.add', 'nowhere.echo'):
                    try:
                        context.tools.call(name, {'code': '1'} if name.endswith('execute_code') else {}); kinds.append('ok')
                    except ToolError as e:
                        kinds.append(e.kind)
                result = kinds
                """);
        assertEquals(List.of("not_allowed", "not_allowed", "not_allowed", "not_allowed"), result.get("result"),
                result.toString());
        assertEquals(List.of("not_allowed", "not_allowed", "not_allowed", "not_allowed"), errors(result));
    }

    @Test
    void nonJsonParametersAndSchemaViolationsRaiseInvalidParamsNamingThePath() {
        Map<String, Object> result = run("""
                import datetime
                messages = []
                for params in ({'text': {1, 2}}, {'text': 'a', 'when': [datetime.date(2026, 1, 1)]}, {'a': 'one', 'b': 2}):
                    try:
                        context.tools.call('stub.add' if 'a' in params else 'stub.echo', params)
                    except ToolError as e:
                        messages.append([e.kind, e.message])
                result = messages
                """);
        assertEquals("success", result.get("status"), result.toString());
        @SuppressWarnings("unchecked")
        List<List<String>> messages = (List<List<String>>) result.get("result");
        assertEquals("invalid_params", messages.get(0).get(0));
        assertTrue(messages.get(0).get(1).contains("params['text'] is set"), messages.toString());
        assertTrue(messages.get(1).get(1).contains("params['when'][0] is date"), messages.toString());
        assertEquals("invalid_params", messages.get(2).get(0));
        assertTrue(messages.get(2).get(1).contains("schema"), messages.toString());
    }

    @Test
    void theDownstreamSeesNoneOfOurServersEnvironment() {
        Map<String, Object> result = run("result = context.tools.call('stub.env', {'name': '" + SECRET_NAME + "'})");
        assertEquals("success", result.get("status"), result.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> env = (Map<String, Object>) result.get("result");
        assertEquals(false, env.get("present"), env.toString());
        @SuppressWarnings("unchecked")
        List<String> names = (List<String>) env.get("names");
        // The safe list, and the depth marker that tells a child it runs under code mode.
        assertTrue(List.of("HOME", "LOGNAME", "PATH", "PYSANDBOX_MCP_DEPTH", "SHELL", "TERM", "USER").containsAll(names),
                names.toString());
        assertTrue(names.contains("PYSANDBOX_MCP_DEPTH"), names.toString());
    }

    @Test
    void aDownstreamDyingMidCallFailsThatCallQuicklyAndTheNextExecutionWorks() {
        Map<String, Object> crashed = run("""
                import time
                started = time.monotonic()
                try:
                    context.tools.call('fragile.crash')
                    result = ['ok', 0]
                except ToolError as e:
                    result = [e.kind, time.monotonic() - started]
                """);
        @SuppressWarnings("unchecked")
        List<Object> outcome = (List<Object>) crashed.get("result");
        assertEquals("server_unavailable", outcome.get(0), crashed.toString());
        assertTrue(((Number) outcome.get(1)).doubleValue() < 3.0, "took " + outcome.get(1) + " s");
        Map<String, Object> next = run("result = context.tools.call('fragile.echo', {'text': 'back'})");
        assertEquals("back", next.get("result"), next.toString());
    }

    @Test
    void aSlowToolPastTheExecutionsTimeoutGivesTimeoutWithTheCallRecorded() {
        Map<String, Object> result = run("context.tools.call('stub.slow', {'ms': 20000})", "timeout", 3);
        assertEquals("timeout", result.get("status"), result.toString());
        assertEquals(List.of("stub.slow"), toolCalls(result).stream().map(call -> call.get("tool")).toList());
        assertEquals(List.of("timeout"), errors(result));
        assertTrue(((Number) result.get("execution_time")).doubleValue() < 5.0, result.toString());
    }

    @Test
    void aToolCallPastItsOwnTimeoutRaisesTimeoutAndTheRunGoesOn() {
        Map<String, Object> result = run("""
                try:
                    context.tools.call('fragile.slow', {'ms': 10000})
                    result = 'answered'
                except ToolError as e:
                    result = e.kind
                """, "timeout", 30);
        assertEquals("timeout", result.get("result"), result.toString());
        assertEquals("success", result.get("status"));
        assertTrue(((Number) result.get("execution_time")).doubleValue() < 8.0, result.toString());
    }

    @Test
    void aWorkerKilledDuringAToolCallStillReportsTheCallsItMade() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Map<String, Object>> answer = caller.submit(() -> run("""
                    context.tools.call('stub.echo', {'text': 'first'})
                    context.tools.call('stub.slow', {'ms': 15000})
                    """));
            Thread.sleep(4_000);
            SandboxServer.workersTagged(WORKER_TAG).forEach(ProcessHandle::destroyForcibly);
            Map<String, Object> result = answer.get(60, TimeUnit.SECONDS);
            assertEquals("execution_error", result.get("status"), result.toString());
            assertEquals(List.of("stub.echo", "stub.slow"), toolCalls(result).stream().map(call -> call.get("tool")).toList(),
                    result.toString());
            assertEquals(Boolean.TRUE, toolCalls(result).get(0).get("ok"));
            assertEquals("abandoned", toolCalls(result).get(1).get("error"));
        } finally {
            caller.shutdownNow();
            untilAWorkerAnswers();
        }
    }

    /**
     * Waits until the pool has replaced the workers a test killed: every tagged worker died, idle ones too, and a
     * call handed to one before the supervisor saw it die is answered as lost, which the next test must not meet.
     */
    private static void untilAWorkerAnswers() {
        for (int attempt = 0; attempt < 10; attempt++) {
            if ("success".equals(run("print(1)").get("status"))) {
                return;
            }
        }
        throw new AssertionError("no worker answered after 10 calls: the pool did not replace the killed workers");
    }

    @Test
    void toolErrorsAndProtocolErrorsHaveTheirOwnKinds() {
        Map<String, Object> result = run("""
                out = []
                for name, params in (('stub.fail', {'message': 'it broke'}), ('stub.rpc_error', {})):
                    try:
                        context.tools.call(name, params)
                    except ToolError as e:
                        out.append([e.kind, str(e)])
                result = out
                """);
        assertEquals(List.of(List.of("tool_error", "[tool_error] stub.fail: it broke"),
                List.of("protocol_error", "[protocol_error] stub.rpc_error: the server answered with error -32603:"
                        + " rpc_error: deliberate JSON-RPC error")), result.get("result"), result.toString());
    }

    @Test
    void anUncaughtToolErrorEndsTheRunAsAnExecutionError() {
        Map<String, Object> result = run("context.tools.call('stub.big', {'bytes': 2000000})");
        assertEquals("execution_error", result.get("status"), result.toString());
        assertTrue(String.valueOf(result.get("error_message")).startsWith("ToolError: [result_too_large] stub.big"),
                result.toString());
        assertEquals(List.of("result_too_large"), errors(result));
    }

    @Test
    void theDescriptionNamesTheCallableToolsAndTheBudget() throws InterruptedException {
        // The servers start after ours answers; the description is updated, and announced with
        // notifications/tools/list_changed, once they have.
        Tool executeCode = null;
        for (int i = 0; i < 240 && executeCode == null; i++) {
            executeCode = TOOL_LISTS.stream().flatMap(List::stream)
                    .filter(t -> t.name().equals("execute_code") && !t.description().contains("starting"))
                    .findFirst().orElse(null);
            Thread.sleep(250);
        }
        assertTrue(executeCode != null, "no tools/list_changed with the discovered tools: " + TOOL_LISTS);
        assertTrue(executeCode.description().contains("At most 10 tool calls per run"), executeCode.description());
        assertTrue(executeCode.description().contains("stub (add, big, crash, echo, env, fail, json_text, rpc_error, slow)"),
                executeCode.description());
        assertFalse(executeCode.description().contains("pid"), executeCode.description());
        // The stub's tools give no hints, so code that may call them may change things outside.
        assertEquals(Boolean.FALSE, executeCode.annotations().readOnlyHint());
        assertEquals(Boolean.TRUE, executeCode.annotations().destructiveHint());
        assertEquals(Boolean.TRUE, executeCode.annotations().openWorldHint());
    }

    @Test
    void validateCodeReportsEachKindWithItsLine() {
        CallToolResult answer = server.call("validate_code", Map.of("code", """
                import socket
                x = context.tools.call('stub.nope', {})
                y = context.tools.call('stub.pid')
                await context.tools.stub.echo(text='a')
                z = context.tools.call('stub.echo', {'text': {1, 2}})
                def broken(:
                """));
        @SuppressWarnings("unchecked")
        Map<String, Object> syntax = (Map<String, Object>) answer.structuredContent();
        assertEquals(false, syntax.get("valid"));
        assertEquals(List.of("syntax"), kinds(syntax), syntax.toString());
        assertEquals(6, lines(syntax).get(0), syntax.toString());
        CallToolResult checked = server.call("validate_code", Map.of("code", """
                import socket
                x = context.tools.call('stub.nope', {})
                y = context.tools.call('stub.pid')
                await context.tools.stub.echo(text='a')
                z = context.tools.call('stub.echo', {'text': {1, 2}})
                """));
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) checked.structuredContent();
        assertEquals(List.of("import_not_allowed", "unknown_tool", "tool_not_allowed", "await_tool_call", "non_json_param"),
                kinds(report), report.toString());
        assertEquals(List.of(1, 2, 3, 4, 5), lines(report));
        @SuppressWarnings("unchecked")
        Map<String, Object> clean = (Map<String, Object>) server.call("validate_code",
                Map.of("code", "print(context.tools.call('stub.echo', {'text': 'a'}))")).structuredContent();
        assertEquals(Map.of("valid", true, "errors", List.of()), clean);
    }

    @Test
    void validateCodeReportsNamesTheStrictProfileForbids() {
        try (SandboxServer strict = SandboxServer.start("--builtins.strict=true", "--workers=1")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> report = (Map<String, Object>) strict.call("validate_code",
                    Map.of("code", "x = 1\ny = eval('x')\n")).structuredContent();
            assertEquals(List.of("strict_name"), kinds(report), report.toString());
            assertEquals(List.of(2), lines(report));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> kinds(Map<String, Object> report) {
        return ((List<Map<String, Object>>) report.get("errors")).stream().map(e -> e.get("kind")).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> lines(Map<String, Object> report) {
        return ((List<Map<String, Object>>) report.get("errors")).stream().map(e -> e.get("line")).toList();
    }

    @Test
    void sixteenExecutionsInFlightEachMakingFiveToolCallsAllGetTheirOwnAnswers() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<Map<String, Object>>> answers = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                int n = i;
                answers.add(pool.submit(() -> run("""
                        n = context.inputs['n']
                        result = [context.tools.call('stub.add', {'a': n, 'b': k})['sum'] for k in range(5)]
                        """, "inputs", Map.of("n", n * 100))));
            }
            for (int i = 0; i < 16; i++) {
                Map<String, Object> result = answers.get(i).get(4, TimeUnit.MINUTES);
                int base = i * 100;
                assertEquals(List.of(base, base + 1, base + 2, base + 3, base + 4), result.get("result"), result.toString());
                assertEquals(5, toolCalls(result).size());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSessionGetsFreshInputsAndAFreshBudgetEachCall() {
        String session = "code-mode-" + System.nanoTime();
        Map<String, Object> first = run("""
                held = context.tools
                for i in range(10):
                    context.tools.call('stub.echo', {'text': 'x'})
                result = context.inputs
                """, "session_id", session, "inputs", Map.of("call", 1));
        assertEquals(Map.of("call", 1), first.get("result"), first.toString());
        Map<String, Object> second = run("""
                result = [context.inputs, held.call('stub.echo', {'text': 'again'})]
                """, "session_id", session, "inputs", Map.of("call", 2));
        assertEquals(List.of(Map.of("call", 2), "again"), second.get("result"), second.toString());
    }

    @Test
    void stubsCarryTheToolsSignatureAndHelpShowsIt() {
        Map<String, Object> result = run("""
                add = context.tools.stub.add
                help(add)
                result = [str(add.__signature__), add(b=2, a=1)['sum'], sorted(dir(context.tools.stub))[:3]]
                try:
                    add(1, 2)
                except TypeError as e:
                    result.append(str(e))
                """);
        assertEquals(List.of("(*, a, b)", 3, List.of("add", "big", "crash"), "add() takes keyword arguments only"),
                result.get("result"), result.toString());
        assertTrue(String.valueOf(result.get("stdout")).startsWith("add(*, a, b)\nAdds two integers"), result.toString());
    }

    @Test
    void aCallThatComesFromAnotherCodeModeGetsNoTools() {
        // What a downstream copy of this server sees: calls carry our depth marker in _meta.
        CallToolResult answer = server.client.callTool(io.modelcontextprotocol.spec.McpSchema.CallToolRequest.builder("execute_code")
                .arguments(Map.of("language", "python", "code", """
                        try:
                            context.tools.call('stub.echo', {'text': 'a'})
                        except ToolError as e:
                            result = e.kind
                        """)).meta(Map.of("dev.pysandbox/depth", 1)).build());
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) answer.structuredContent();
        assertEquals("not_configured", result.get("result"), result.toString());
    }

    @Test
    void aServerStartedByACodeModeHasCodeModeOff() throws IOException {
        Path servers = serversFile(temp, "nested.json", stub("stub", List.of("*"), List.of()));
        try (SandboxServer nested = SandboxServer.start(Map.of("PYSANDBOX_MCP_DEPTH", "1"), spec -> spec,
                "--code-mode.servers=" + servers, "--workers=1")) {
            List<String> outcome = failureOf(nested, "stub.echo");
            assertEquals("not_configured", outcome.get(0), outcome.toString());
            assertTrue(outcome.get(1).contains("PYSANDBOX_MCP_DEPTH=1"), outcome.toString());
        }
    }

    @Test
    void aConfigurationThatLaunchesThisServerItselfIsRefusedAtStart() throws Exception {
        Path servers = temp.resolve("self.json");
        Files.writeString(servers, "{\"mcpServers\": {\"me\": {\"command\": \"" + SandboxServer.LAUNCHER
                + "\", \"tools\": [\"*\"]}}}");
        Process process = new ProcessBuilder(SandboxServer.LAUNCHER.toString(), "--code-mode.servers=" + servers)
                .redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertNotEquals(0, process.exitValue(), output);
        assertTrue(output.contains("server 'me' launches python-sandbox-mcp itself") && output.contains("recursion"), output);
    }

    @Test
    void aDownstreamThatReportsOurOwnNameIsRefused() throws IOException {
        Map<String, Object> mirror = stub("mirror", List.of("*"), List.of());
        mirror.put("env", Map.of("STUB_SERVER_NAME", "python-sandbox-mcp"));
        Path servers = serversFile(temp, "impostor.json", mirror);
        try (SandboxServer refusing = SandboxServer.start("--code-mode.servers=" + servers, "--workers=1")) {
            List<String> outcome = failureOf(refusing, "mirror.echo");
            assertEquals("server_unavailable", outcome.get(0), outcome.toString());
            assertTrue(outcome.get(1).contains("recursion"), outcome.toString());
        }
    }

    /** [kind, message] of the ToolError a call of {@code tool} raises on that server. */
    @SuppressWarnings("unchecked")
    private static List<String> failureOf(SandboxServer on, String tool) {
        Map<String, Object> result = on.execute(Map.of("language", "python", "code", """
                try:
                    context.tools.call('%s', {'text': 'a'})
                    result = ['ok', '']
                except ToolError as e:
                    result = [e.kind, e.message]
                """.formatted(tool)));
        return (List<String>) result.get("result");
    }

    /** The raw bridge, found the way an attacker would: through the closure cells of context.tools.call. */
    private static final String FIND_PROXY = """
            def cells(function):
                return [cell.cell_contents for cell in (function.__closure__ or ())]
            request = [f for f in cells(context.tools.call) if getattr(f, '__name__', '') == 'tool_request'][0]
            proxy = [v for v in cells(request) if 'polyglot' in type(v).__module__ or 'Foreign' in type(v).__name__][0]
            """;

    @Test
    void attackCallsTheRawBridgeToReachADeniedToolAndSkipTheBudget() {
        Map<String, Object> result = run(FIND_PROXY + """
                import json
                replies = [json.loads(proxy('call', 'stub.pid', '{}'))['error']['kind'],
                           json.loads(proxy('call', 'stub.execute_code', '{"code": "1"}'))['error']['kind']]
                for i in range(10):
                    proxy('call', 'stub.echo', '{"text": "x"}')
                replies.append(json.loads(proxy('call', 'stub.echo', '{"text": "x"}'))['error']['kind'])
                result = replies
                """);
        assertEquals(List.of("not_allowed", "not_allowed", "limit_exceeded"), result.get("result"), result.toString());
        assertEquals(13, toolCalls(result).size());
    }

    @Test
    void attackSendsTheRawBridgeNonStringsHugeAndDeeplyNestedParameters() {
        Map<String, Object> result = run(FIND_PROXY + """
                import json
                kinds = []
                for args in ((1, 2, 3), ('call', 'stub.echo', {'text': 'x'}), ('call',), ('call', 'stub.echo', 'x' * 20_000_000),
                             ('call', 'stub.echo', '{"text": ' + '[' * 10000 + ']' * 10000 + '}'),
                             ('call', 'stub.echo', '[1, 2]'), ('call', 'stub.echo', 'not json')):
                    try:
                        kinds.append(json.loads(proxy(*args))['error']['kind'])
                    except Exception as e:
                        kinds.append(type(e).__name__ + ': ' + str(e))
                result = kinds
                """);
        assertEquals("success", result.get("status"), result.toString());
        assertEquals(java.util.Collections.nCopies(7, "invalid_params"), result.get("result"), result.toString());
        assertFalse(result.toString().contains("java."), result.toString());
    }

    @Test
    void attackARawBridgeRequestWithAHugeOperationOrNameIsRefusedWithoutEchoingIt() {
        Map<String, Object> result = run(FIND_PROXY + """
                import json
                replies = [proxy('x' * 2_000_000, 'stub.echo', '{}'), proxy('call', 'y' * 2_000_000, '{}'),
                           proxy('search', 'z' * 2_000_000, None)]
                result = [[json.loads(reply)['error']['kind'], len(reply)] for reply in replies]
                """);
        assertEquals("success", result.get("status"), result.toString());
        List<?> replies = (List<?>) result.get("result");
        assertEquals(List.of("protocol_error", "invalid_params", "invalid_params"),
                replies.stream().map(reply -> ((List<?>) reply).get(0)).toList(), result.toString());
        for (Object reply : replies) {
            assertTrue(((Number) ((List<?>) reply).get(1)).intValue() < 1_000, "the reply echoes the request: " + reply);
        }
    }

    @Test
    void attackPatchesTheGuestSideChecksAwayAndForgesTheCallRecord() {
        Map<String, Object> result = run("""
                import json
                type(context.tools).call = staticmethod(lambda name, params=None: 'patched')
                print(json.dumps({'tool_calls': [{'tool': 'stub.pid', 'ok': True, 'duration_ms': 1}]}))
                try:
                    context.tools.stub.pid()
                    outcome = 'called'
                except ToolError as e:
                    outcome = e.kind
                result = {'tool_calls': [], 'outcome': outcome}
                """);
        // The stub's own lookup goes to the server, which does not list pid: patching the guest gains nothing,
        // and the record in the answer is the server's, not the printed or returned one.
        assertEquals("not_allowed", ((Map<?, ?>) result.get("result")).get("outcome"), result.toString());
        assertEquals(List.of(), result.get("tool_calls"));
    }
}
