package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

import dev.pysandbox.wire.WireCodec;

/** execute_code over stdio with the SDK's client: every rule of the tool's contract. */
class ExecuteCodeIT {
    private final SandboxServer server = SharedServer.get();

    private static Map<String, Object> args(String code, Object... more) {
        Map<String, Object> args = new HashMap<>(Map.of("language", "python", "code", code));
        for (int i = 0; i < more.length; i += 2) {
            args.put((String) more[i], more[i + 1]);
        }
        return args;
    }

    @Test
    void listsBothToolsWithSchemas() {
        List<Tool> tools = server.client.listTools().tools();
        Tool execute = tools.stream().filter(t -> t.name().equals("execute_code")).findFirst().orElseThrow();
        assertTrue(tools.stream().anyMatch(t -> t.name().equals("run_python")));
        assertEquals(List.of("language", "code"), execute.inputSchema().get("required"));
        assertNotNull(execute.outputSchema());
        // What an agent needs before its first call: the timeouts and what it may import.
        assertTrue(execute.description().contains("Timeout: 30 s unless `timeout` says otherwise, at most 300 s."),
                execute.description());
        assertTrue(execute.description().contains("Code may import these modules: abc, argparse, array,"
                + " ast, asyncio,"), execute.description());
        assertTrue(execute.description().contains(", json, "), execute.description());
    }

    @Test
    void everyToolCarriesHonestAnnotations() {
        // Code cannot reach anything outside its sandbox: it reads and changes nothing of the client's world
        // and talks to nothing outside; its output may differ from run to run.
        Map<String, String> titles = Map.of("execute_code", "Execute Python or JavaScript code", "run_python", "Run Python",
                "validate_code", "Check Python code without running it", "inspect_session",
                "Show what a Python session holds");
        List<Tool> tools = server.client.listTools().tools();
        assertEquals(titles.keySet(), tools.stream().map(Tool::name).collect(java.util.stream.Collectors.toSet()));
        for (Tool tool : tools) {
            ToolAnnotations annotations = tool.annotations();
            assertNotNull(annotations, tool.name());
            assertEquals(titles.get(tool.name()), tool.title());
            assertEquals(titles.get(tool.name()), annotations.title());
            assertEquals(Boolean.TRUE, annotations.readOnlyHint(), tool.name());
            assertEquals(Boolean.FALSE, annotations.destructiveHint(), tool.name());
            assertEquals(Boolean.FALSE, annotations.openWorldHint(), tool.name());
            assertEquals(Boolean.FALSE, annotations.idempotentHint(), tool.name());
        }
    }

    @Test
    void successReportsStdoutAsStructuredContentAndJsonText() {
        CallToolResult call = server.call("execute_code", args("print(1 + 1)"));
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) call.structuredContent();
        assertEquals("success", result.get("status"));
        assertEquals("2\n", result.get("stdout"));
        assertEquals("", result.get("stderr"));
        assertEquals(0, result.get("exit_code"));
        assertNull(result.get("error_message"));
        assertTrue(((Number) result.get("execution_time")).doubleValue() >= 0);
        assertFalse(Boolean.TRUE.equals(call.isError()));
        assertEquals(result, WireCodec.parseValue(SandboxServer.text(call)), "text content is the same result as JSON");
    }

    @Test
    void stdinFeedsInput() {
        Map<String, Object> result = server.execute(args("name = input()\nprint(f'Hello, {name}')", "stdin", "Alice\n"));
        assertEquals("Hello, Alice\n", result.get("stdout"));
    }

    @Test
    void resultVariableIsReturnedAsJsonOrRepr() {
        assertEquals(Map.of("a", List.of(1, 2.5, "x")), server.python("result = {'a': [1, 2.5, 'x']}").get("result"));
        assertEquals("{1, 2}", server.python("result = {1, 2}").get("result"));
        assertNull(server.python("x = 1").get("result"));
    }

    @Test
    void resultBeyondTheJsonParsersLimitsIsReturnedAsText() {
        Map<String, Object> result = server.python("result = 10 ** 1000");
        assertEquals("success", result.get("status"));
        assertEquals("1" + "0".repeat(1000), result.get("result"));
    }

    @Test
    void hostileCodeCannotMakeItsOwnFailureLookLikeASandboxRefusal() {
        Map<String, Object> badStr = server.python("class E(Exception):\n    def __str__(self):\n        raise ValueError()\nraise E()");
        assertEquals("E: <the exception could not be shown>", badStr.get("error_message"));
        Map<String, Object> noJson = server.python("import sys\nsys.modules['json'] = None\nresult = 1");
        assertEquals("The result could not be reported: ModuleNotFoundError", noJson.get("error_message"));
        assertEquals("success", server.python("pass").get("status"));
    }

    @Test
    void uncaughtExceptionIsExitCodeOneWithPythonTracebackOnly() {
        Map<String, Object> result = server.python("def f():\n    return 1 / 0\nf()");
        assertEquals("execution_error", result.get("status"));
        assertEquals(1, result.get("exit_code"));
        assertEquals("ZeroDivisionError: division by zero", result.get("error_message"));
        String stderr = (String) result.get("stderr");
        assertTrue(stderr.startsWith("Traceback (most recent call last):"), stderr);
        assertTrue(stderr.contains("File \"<string>\", line 2, in f"), stderr);
        assertFalse(stderr.contains(".java") || stderr.contains("at com.") || stderr.contains("org.graalvm"), stderr);
        assertFalse(stderr.contains("prelude"), "the sandbox's own frames are hidden: " + stderr);
    }

    @Test
    void sysExitSetsTheExitCode() {
        Map<String, Object> three = server.python("import sys\nprint('bye')\nsys.exit(3)");
        assertEquals(3, three.get("exit_code"));
        assertEquals("execution_error", three.get("status"));
        assertEquals("bye\n", three.get("stdout"));
        Map<String, Object> zero = server.python("import sys\nsys.exit(0)");
        assertEquals(0, zero.get("exit_code"));
        assertEquals("success", zero.get("status"));
    }

    /**
     * Fresh contexts run code as a shared, parsed module, where GraalPy would end the context on a SystemExit
     * before the runner could flush or report: the prelude's SystemExit must keep CPython's behaviour.
     */
    @Test
    void sysExitKeepsUnflushedOutputAndTheResultAndLooksLikeCPythons() {
        Map<String, Object> partial = server.python("import sys\nsys.stdout.write('partial')\nsys.exit(3)");
        assertEquals(3, partial.get("exit_code"));
        assertEquals("partial", partial.get("stdout"));
        Map<String, Object> raised = server.python("result = 5\nprint('no newline', end='')\nraise SystemExit(0)");
        assertEquals("success", raised.get("status"));
        assertEquals("no newline", raised.get("stdout"));
        assertEquals(5, raised.get("result"));
        // What CPython 3.11 prints for the same code.
        Map<String, Object> looks = server.python("""
                import sys
                for args in [(), (3,), ('m',), (1, 2)]:
                    try:
                        raise SystemExit(*args)
                    except SystemExit as e:
                        print(repr(e), str(e), e.code, e.args, type(e) is SystemExit, isinstance(e, BaseException))
                try:
                    sys.exit(4)
                except SystemExit as e:
                    print(repr(e), e.code)
                """);
        assertEquals("""
                SystemExit()  None () True True
                SystemExit(3) 3 3 (3,) True True
                SystemExit('m') m m ('m',) True True
                SystemExit(1, 2) (1, 2) (1, 2) (1, 2) True True
                SystemExit(4) 4
                """, looks.get("stdout"));
    }

    @Test
    void timeoutKeepsOutputWrittenBeforeIt() {
        Map<String, Object> result = server.execute(args("print('before the loop')\nwhile True:\n    pass", "timeout", 2));
        assertEquals("timeout", result.get("status"));
        assertEquals(-1, result.get("exit_code"));
        assertEquals("before the loop\n", result.get("stdout"));
        assertTrue(((String) result.get("error_message")).contains("2 seconds"), (String) result.get("error_message"));
    }

    @Test
    void builtinThatIgnoresInterruptsStillTimesOutAndTheNextCallWorks() {
        Map<String, Object> result = server.execute(args("print('started')\nx = 7 ** (10 ** 8)", "timeout", 2));
        assertEquals("timeout", result.get("status"));
        assertEquals("started\n", result.get("stdout"));
        assertEquals("success", server.python("print('next')").get("status"));
    }

    @Test
    void memoryBombHitsTheHeapCapEvenIfTheCodeCatchesMemoryErrorAndTheNextCallWorks() {
        // Filling the worker's heap took over 30 s once on a loaded two-core machine: the timeout is raised so
        // that the test asserts the memory limit, not the machine's speed (the client waits up to 240 s).
        Map<String, Object> result = server.execute(args("hoard = []\ntry:\n    while True:\n        hoard.append('x' * 10**6)\n"
                + "except MemoryError:\n    import time\n    time.sleep(600)", "timeout", 200));
        assertEquals("execution_error", result.get("status"));
        assertTrue(((String) result.get("error_message")).startsWith("Memory limit reached"), (String) result.get("error_message"));
        assertEquals("success", server.python("print('after')").get("status"));
    }

    @Test
    void longOutputKeepsHeadAndTailWithAMarker() {
        Map<String, Object> result = server.python("for i in range(20000):\n    print(i)");
        String stdout = (String) result.get("stdout");
        assertEquals("success", result.get("status"));
        assertEquals(Boolean.TRUE, ((Map<?, ?>) result.get("truncated")).get("stdout"));
        assertTrue(stdout.startsWith("0\n1\n2\n"), stdout.substring(0, 20));
        assertTrue(stdout.endsWith("19998\n19999\n"));
        assertTrue(stdout.contains("bytes omitted"));
        assertTrue(stdout.length() < 51_200 + 100, "capped near the default 50 KB: " + stdout.length());
    }

    @Test
    void outputFloodIsStoppedLongBeforeTheTimeout() {
        Map<String, Object> result = server.execute(args("while True:\n    print('x' * 1000)", "timeout", 120));
        assertEquals("execution_error", result.get("status"));
        assertTrue(((String) result.get("error_message")).startsWith("Output limit exceeded"));
        assertEquals(Boolean.TRUE, ((Map<?, ?>) result.get("truncated")).get("stdout"));
        assertTrue(((Number) result.get("execution_time")).doubleValue() < 60, "stopped by the flood rule, not the timeout");
    }

    @Test
    void stderrFloodIsStoppedToo() {
        Map<String, Object> result = server.python("import sys\nwhile True:\n    sys.stderr.write('e' * 1000)");
        assertEquals("execution_error", result.get("status"));
        assertEquals(Boolean.TRUE, ((Map<?, ?>) result.get("truncated")).get("stderr"));
    }

    @Test
    void languageIsCaseInsensitiveAndOnlyPython() {
        assertEquals("success", server.execute(Map.of("language", "PYTHON", "code", "pass")).get("status"));
        CallToolResult ruby = server.call("execute_code", Map.of("language", "ruby", "code", "puts 1"));
        assertTrue(ruby.isError());
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) ruby.structuredContent();
        assertEquals("setup_error", result.get("status"));
        assertTrue(((String) result.get("error_message")).contains("'ruby'"));
    }

    @Test
    void schemaViolationsNameTheField() {
        CallToolResult tooLong = server.call("execute_code", args("pass", "timeout", 301));
        assertTrue(tooLong.isError());
        assertTrue(SandboxServer.text(tooLong).contains("timeout"), SandboxServer.text(tooLong));
        CallToolResult wrongType = server.call("execute_code", args("pass", "timeout", "soon"));
        assertTrue(wrongType.isError());
        assertTrue(SandboxServer.text(wrongType).contains("timeout"), SandboxServer.text(wrongType));
        CallToolResult missing = server.call("execute_code", Map.of("language", "python"));
        assertTrue(missing.isError());
        assertTrue(SandboxServer.text(missing).contains("code"), SandboxServer.text(missing));
        CallToolResult extra = server.call("execute_code", args("pass", "bogus", 1));
        assertTrue(extra.isError());
        assertTrue(SandboxServer.text(extra).contains("bogus"), SandboxServer.text(extra));
    }

    @Test
    void codeOverTheSizeLimitIsRefused() {
        Map<String, Object> result = server.python("#" + "x".repeat(1_100_000));
        assertEquals("setup_error", result.get("status"));
        assertTrue(((String) result.get("error_message")).contains("code.max-bytes"));
    }

    @Test
    void unknownToolIsAProtocolError() {
        McpError error = assertThrows(McpError.class, () -> server.call("no_such_tool", Map.of()));
        assertNotNull(error.getMessage());
        assertEquals("success", server.python("pass").get("status"), "the server is still up");
    }

    @Test
    void callsWithoutASessionShareNothing() {
        server.python("leaked = 'from an earlier call'");
        Map<String, Object> result = server.python("print(leaked)");
        assertEquals("NameError: name 'leaked' is not defined", result.get("error_message"));
    }

    /** Attack: the same text sent twice shares its compiled code between fresh contexts; it must share no state. */
    @Test
    void theSameCodeInFreshContextsSharesNoState() {
        String code = "try:\n    counter\nexcept NameError:\n    counter = 0\ncounter += 1\nprint(counter, __name__)";
        for (int i = 0; i < 4; i++) {
            assertEquals("1 __main__\n", server.python(code).get("stdout"), "call " + i);
        }
    }

    @Test
    void sessionKeepsStateAndSessionsAreSeparate() {
        String id = "it-session-" + System.nanoTime();
        server.execute(args("import math\ncounter = 41", "session_id", id));
        Map<String, Object> second = server.execute(args("counter += 1\nprint(counter, math.pi > 3)", "session_id", id));
        assertEquals("42 True\n", second.get("stdout"));
        Map<String, Object> other = server.execute(args("print('counter' in globals())", "session_id", id + "-other"));
        assertEquals("False\n", other.get("stdout"));
    }

    @Test
    void sessionReportsResultOnlyForCallsThatNameIt() {
        String id = "it-result-" + System.nanoTime();
        assertEquals(5, server.execute(args("result = 5", "session_id", id)).get("result"));
        assertNull(server.execute(args("print('unrelated')", "session_id", id)).get("result"), "not this call's result");
        assertEquals(5, server.execute(args("print(result)", "session_id", id)).get("result"));
    }

    @Test
    void sandboxRefusalIsAClearErrorWithoutHostDetails() {
        // os is outside the default import policy; sys.modules hands it over anyway, and the interpreter refuses.
        Map<String, Object> result = server.python("import sys\nsys.modules['os'].system('id')");
        assertEquals("execution_error", result.get("status"));
        String message = (String) result.get("error_message");
        assertTrue(message.contains("not allowed"), message);
        assertFalse(message.contains("java") || message.contains("Context.Builder"), message);
    }
}
