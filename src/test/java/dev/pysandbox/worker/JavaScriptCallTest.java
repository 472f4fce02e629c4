package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.files.FileLimits;
import dev.pysandbox.wire.WorkerCommand;
import dev.pysandbox.worker.CallsAsAWorkerRunsThem.Answer;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/**
 * JavaScript calls in real GraalJS contexts, as a worker runs them: Node's output and errors, promises and timers
 * drained before the answer, `result`, sessions, and every stop and refusal the Python side has.
 */
class JavaScriptCallTest {
    private static final long RUNAWAY_TIMEOUT_MILLIS = 300;
    private static final long FINISHING_TIMEOUT_MILLIS = 60_000;
    private static final WorkerSettings SETTINGS = new WorkerSettings(65_536, 1_048_576, 1, 500,
            ImportPolicy.standard(), false, List.of(), "", FileLimits.DEFAULT, List.of(), 0);
    private static final ToolBridge TOOLS = new ToolBridge(event -> { });
    private static final ChartBridge CHARTS = new ChartBridge(ChartLimits.DEFAULT);
    private static JavaScriptContexts contexts;
    private static ScheduledExecutorService watchdog;

    @BeforeAll
    static void engine() {
        contexts = new JavaScriptContexts(TOOLS, FileLimits.DEFAULT);
        watchdog = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    static void close() {
        watchdog.shutdownNow();
        contexts.close();
    }

    private static Answer run(PreparedContext prepared, String code, String session, long timeoutMillis)
            throws Exception {
        return answer(prepared, new WorkerCommand.Execute(1, Language.JAVASCRIPT, code, "", timeoutMillis, session,
                "<string>", null, null, "{\"city\": \"Oslo\"}"));
    }

    private static Answer answer(PreparedContext prepared, WorkerCommand.Call command) throws Exception {
        return CallsAsAWorkerRunsThem.answer(prepared, command, SETTINGS, watchdog, TOOLS, CHARTS);
    }

    /** Runs code in a context of its own, closed afterwards, as a call without a session. */
    private static RunReport fresh(String code) throws Exception {
        PreparedContext prepared = contexts.prepare();
        try {
            return run(prepared, code, null, FINISHING_TIMEOUT_MILLIS).result();
        } finally {
            prepared.context().close(true);
        }
    }

    @Test
    void consoleLogAndInfoWriteToStdoutAndErrorAndWarnToStderr() throws Exception {
        RunReport report = fresh("console.log('a', 1); console.info('b'); console.error('c'); console.warn('d');"
                + " process.stdout.write('e'); process.stderr.write('f')");
        assertEquals(Status.SUCCESS, report.status(), report::toString);
        assertEquals("a 1\nb\ne", report.stdout());
        assertEquals("c\nd\nf", report.stderr());
    }

    @Test
    void anUncaughtErrorIsAnExecutionErrorWithItsNameMessageAndStackOnStderr() throws Exception {
        RunReport report = fresh("function parse(text) { return JSON.parse(text).value.toFixed(2); }\n"
                + "console.log('before');\nparse('{}');");
        assertEquals(Status.EXECUTION_ERROR, report.status(), report::toString);
        assertEquals(1, report.exitCode());
        assertTrue(report.errorMessage().startsWith("TypeError: "), report.errorMessage());
        assertEquals("before\n", report.stdout());
        assertTrue(report.stderr().startsWith("TypeError: "), report.stderr());
        assertTrue(report.stderr().contains("at parse ([eval]:1:"), "the stack names the code's frames: " + report.stderr());
        assertFalse(report.stderr().contains("sandbox-runtime"), report.stderr());
    }

    @Test
    void aThrownValueThatIsNoErrorIsReportedAsUncaught() throws Exception {
        RunReport report = fresh("throw 'plain text'");
        assertEquals(Status.EXECUTION_ERROR, report.status(), report::toString);
        assertEquals("Uncaught 'plain text'", report.errorMessage());
    }

    @Test
    void codeThatDoesNotParseIsAnExecutionErrorNamingItsLine() throws Exception {
        RunReport report = fresh("const a = 1;\nfunction f( {");
        assertEquals(Status.EXECUTION_ERROR, report.status(), report::toString);
        assertTrue(report.errorMessage().startsWith("SyntaxError: [eval]:2:"), report.errorMessage());
    }

    @Test
    void resultComesBackAsJsonAndAValueJsonCannotHoldAsWhatConsoleLogShows() throws Exception {
        RunReport data = fresh("const rows = [{id: 1, tags: ['a']}]; let result = {count: rows.length, rows}");
        assertEquals(Map.of("count", 1, "rows", List.of(Map.of("id", 1, "tags", List.of("a")))), data.result(),
                data::toString);
        RunReport global = fresh("result = 6 * 7");
        assertEquals(42, global.result(), global::toString);
        RunReport none = fresh("const x = 1");
        assertNull(none.result(), none::toString);
    }

    @Test
    void promisesTopLevelAwaitAndTimersAreDrainedBeforeTheAnswer() throws Exception {
        RunReport report = fresh("""
                const wait = ms => new Promise(resolve => setTimeout(resolve, ms));
                setTimeout(() => console.log('timer 30'), 30);
                setTimeout(() => console.log('timer 10'), 10);
                Promise.resolve().then(() => console.log('microtask'));
                await wait(50);
                console.log('after await');
                result = await Promise.all([1, 2].map(async n => n * 10));
                """);
        assertEquals(Status.SUCCESS, report.status(), report::toString);
        assertEquals("microtask\ntimer 10\ntimer 30\nafter await\n", report.stdout());
        assertEquals(List.of(10, 20), report.result());
    }

    @Test
    void aRejectedPromiseNobodyCatchesFailsTheCall() throws Exception {
        RunReport report = fresh("Promise.reject(new RangeError('nobody catches this'))");
        assertEquals(Status.EXECUTION_ERROR, report.status(), report::toString);
        assertTrue(report.errorMessage().contains("RangeError: nobody catches this"), report.errorMessage());
        RunReport awaited = fresh("console.log('before'); await Promise.reject(new TypeError('awaited'));");
        assertEquals(Status.EXECUTION_ERROR, awaited.status(), awaited::toString);
        assertTrue(awaited.errorMessage().contains("TypeError: awaited"), awaited.errorMessage());
        assertEquals("before\n", awaited.stdout());
    }

    @Test
    void aSessionThatReplacesJsonStillGetsItsResultAndInputs() throws Exception {
        PreparedContext session = contexts.prepare();
        try {
            run(session, "JSON.stringify = () => 'forged'; JSON.parse = () => ({})", "s", FINISHING_TIMEOUT_MILLIS);
            Answer after = run(session, "result = {city: context.inputs.city}", "s", FINISHING_TIMEOUT_MILLIS);
            assertEquals(Map.of("city", "Oslo"), after.result().result(), after.result()::toString);
        } finally {
            session.context().close(true);
        }
    }

    @Test
    void processExitEndsTheCallWithItsStatus() throws Exception {
        RunReport report = fresh("console.log('one'); process.exit(3); console.log('two')");
        assertEquals(Status.EXECUTION_ERROR, report.status(), report::toString);
        assertEquals(3, report.exitCode());
        assertEquals("one\n", report.stdout());
        assertEquals(Status.SUCCESS, fresh("process.exit(0)").status());
    }

    @Test
    void inputsAreReadAsContextInputs() throws Exception {
        assertEquals("Oslo\n", fresh("console.log(context.inputs.city)").stdout());
    }

    @Test
    void attackHostGlobalsAreGoneAndEachWayOutSaysWhatIsNotAvailable() throws Exception {
        RunReport gone = fresh("console.log([typeof Java, typeof Packages, typeof Polyglot, typeof Graal, typeof load,"
                + " typeof print, typeof java].join(' '))");
        assertEquals("undefined undefined undefined undefined undefined undefined undefined\n", gone.stdout(),
                gone::toString);
        for (String way : List.of("require('fs')", "require('child_process')", "fetch('http://example.com')",
                "process.env.HOME", "new Worker('x.js')", "process.cwd()")) {
            RunReport refused = fresh(way);
            assertEquals(Status.EXECUTION_ERROR, refused.status(), way + ": " + refused);
            assertTrue(refused.errorMessage().contains("is not available here"), way + ": " + refused.errorMessage());
        }
        RunReport imported = fresh("await import('/etc/passwd')");
        assertEquals(Status.EXECUTION_ERROR, imported.status(), imported::toString);
        assertFalse(imported.stdout().contains("root:"), imported::toString);
        assertTrue(imported.errorMessage().startsWith("Error: import of \"/etc/passwd\" is not available here"),
                imported.errorMessage());
        RunReport staticImport = fresh("import { readFileSync } from 'fs'; console.log(readFileSync('/etc/passwd'))");
        assertEquals(Status.EXECUTION_ERROR, staticImport.status(), staticImport::toString);
        assertTrue(staticImport.errorMessage().startsWith("Error: import of \"fs\" is not available here"),
                staticImport.errorMessage());
    }

    /** One write past output.stop-after-bytes that is the code's last act still breaks the limit. */
    @Test
    void attackOneHugeWriteAsTheLastActIsStillAnOutputFlood() throws Exception {
        for (String code : List.of("console.log('y'.repeat(2_000_000))", "process.stdout.write('z'.repeat(2_000_000))")) {
            PreparedContext prepared = contexts.prepare();
            Answer answer = run(prepared, code, null, FINISHING_TIMEOUT_MILLIS);
            assertEquals(Status.EXECUTION_ERROR, answer.result().status(), code + ": " + answer.result().errorMessage());
            assertTrue(answer.result().errorMessage().startsWith("Output limit exceeded"), answer.result().errorMessage());
            assertTrue(answer.result().stdout().length() < 100_000, "the output is cut");
            assertFalse(answer.recycle(), "the code ended: the worker is fine");
            prepared.context().close(true);
        }
    }

    @Test
    void anEndlessLoopIsStoppedAtItsTimeoutAndKeepsItsWorker() throws Exception {
        for (String runaway : List.of("while (true) {}", "Promise.resolve().then(() => { while (true) {} })",
                "setInterval(() => {}, 1)", "await new Promise(() => setTimeout(() => { for (;;) {} }, 5))")) {
            PreparedContext prepared = contexts.prepare();
            Answer answer = run(prepared, runaway, null, RUNAWAY_TIMEOUT_MILLIS);
            assertEquals(Status.TIMEOUT, answer.result().status(), runaway + ": " + answer.result());
            assertFalse(answer.recycle(), runaway + ": a clean stop keeps the worker");
            prepared.context().close(true);
        }
    }

    @Test
    void aSessionKeepsItsGlobalsAndNoTimerOutlivesACall() throws Exception {
        PreparedContext session = contexts.prepare();
        try {
            assertEquals(Status.SUCCESS, run(session, "const rows = [1, 2, 3]; var total = 6; function twice(x) {"
                    + " return 2 * x }", "s", FINISHING_TIMEOUT_MILLIS).result().status());
            Answer later = run(session, "console.log(rows.length, total, twice(total))", "s", FINISHING_TIMEOUT_MILLIS);
            assertEquals("3 6 12\n", later.result().stdout(), later.result()::toString);
            Answer stopped = run(session, "globalThis.ticks = 0; setInterval(() => ticks++, 1)", "s",
                    RUNAWAY_TIMEOUT_MILLIS);
            assertEquals(Status.TIMEOUT, stopped.result().status(), stopped.result()::toString);
            Answer after = run(session, "const seen = ticks; await new Promise(r => setTimeout(r, 20));"
                    + " console.log(ticks === seen)", "s", FINISHING_TIMEOUT_MILLIS);
            assertEquals("true\n", after.result().stdout(), after.result()::toString);
        } finally {
            session.context().close(true);
        }
    }

    @Test
    void filesReadWhatTheCallPlacedAndWhatTheCodeWritesInTheWorkingDirectoryComesBack() throws Exception {
        PreparedContext prepared = contexts.prepare();
        try {
            Answer answer = answer(prepared, new WorkerCommand.Execute(1, Language.JAVASCRIPT, """
                    const rows = files.read('in/data.csv').trim().split('\\n');
                    files.mkdir('out');
                    files.write('out/summary.json', JSON.stringify({ rows: rows.length }));
                    files.write('/tmp/scratch.txt', 'not returned');
                    files.append('out/log.txt', 'one '); files.append('out/log.txt', new Uint8Array([116, 119, 111]));
                    console.log(files.list(), files.list('in'), files.exists('in/data.csv'), files.exists('nope'));
                    try { files.read('nope.txt'); } catch (e) { console.log(e.code); }
                    """, "", FINISHING_TIMEOUT_MILLIS, null, "<string>",
                    Map.of("in/data.csv", "a,b\n1,2\n3,4\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                    null, null));
            RunReport report = answer.result();
            assertEquals(Status.SUCCESS, report.status(), report::toString);
            assertEquals("[ 'in', 'out' ] [ 'data.csv' ] true false\nENOENT\n", report.stdout());
            Map<String, String> returned = new java.util.TreeMap<>();
            report.files().forEach(file -> returned.put(file.path(), file.text()));
            assertEquals(Map.of("out/log.txt", "one two", "out/summary.json", "{\"rows\":3}"), returned);
        } finally {
            prepared.context().close(true);
        }
    }

    @Test
    void attackFilesReachNothingButTheScratchSpace() throws Exception {
        for (String path : List.of("/etc/passwd", "../../etc/passwd", "/home/sandbox/../../../etc/passwd", "/proc/self/environ")) {
            RunReport report = fresh("files.read('" + path + "')");
            assertEquals(Status.EXECUTION_ERROR, report.status(), path + ": " + report);
            assertTrue(report.errorMessage().startsWith("Error: EACCES: "), path + ": " + report.errorMessage());
        }
    }

    @Test
    void validationFindsASyntaxErrorsLineAndColumnWithoutRunningTheCode() throws Exception {
        PreparedContext prepared = contexts.prepare();
        try {
            ValidationReport report = prepared.runner().validate("console.log('ran');\nlet = = 2;", "{}");
            assertFalse(report.valid());
            assertEquals(2, report.errors().get(0).line(), report::toString);
            assertEquals("syntax", report.errors().get(0).kind());
            assertTrue(prepared.runner().validate("const x = await Promise.resolve(1);", "{}").valid(),
                    "top-level await is valid: it runs as a module");
        } finally {
            prepared.context().close(true);
        }
    }
}
