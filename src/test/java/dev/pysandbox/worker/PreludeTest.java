package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.files.FileLimits;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;
import dev.pysandbox.worker.ValidationReport.Problem;

/**
 * The prelude's rules, each asked two ways: enforced while code runs, and reported by {@code validate_code},
 * which parses the same code. One table per rule drives both, so the two cannot disagree unnoticed.
 */
class PreludeTest {
    /** An import, and whether the standard profile lets user code make it. */
    private record ImportCase(String module, List<String> fromlist, boolean allowed) {
        /** The import statement: {@code import m} or {@code from m import a, b}. */
        String statement() {
            return fromlist.isEmpty() ? "import " + module : "from " + module + " import " + String.join(", ", fromlist);
        }

        /** The same import by a call of {@code __import__}, another route the guard watches. */
        String call() {
            return "__import__('" + module + "', fromlist=[" + fromlist.stream().map(name -> "'" + name + "'")
                    .collect(Collectors.joining(", ")) + "])";
        }
    }

    private static final List<ImportCase> IMPORTS = List.of(
            new ImportCase("json", List.of(), true),
            new ImportCase("os.path", List.of(), true),
            new ImportCase("math", List.of("sqrt"), true),
            new ImportCase("collections", List.of("abc"), true),
            new ImportCase("xml.etree.ElementTree", List.of(), true),
            new ImportCase("xml", List.of("etree"), true),
            new ImportCase("urllib", List.of("parse"), true),
            new ImportCase("urllib.parse", List.of("quote"), true),
            new ImportCase("urllib", List.of(), false),
            new ImportCase("urllib", List.of("request"), false),
            new ImportCase("urllib", List.of("parse", "request"), false),
            new ImportCase("urllib", List.of("*"), false),
            new ImportCase("xml.dom.minidom", List.of(), true),
            new ImportCase("sqlite3", List.of(), false),
            new ImportCase("socket", List.of(), false),
            new ImportCase("subprocess", List.of(), false),
            new ImportCase("importlib", List.of("import_module"), false),
            new ImportCase("polyglot", List.of(), false),
            new ImportCase("numpy", List.of(), false));

    /** Code, and the builtin it names that the strict profile forbids (null: none). */
    private record StrictCase(String code, String forbidden) {
    }

    private static final List<StrictCase> STRICT_NAMES = List.of(
            new StrictCase("x = len('ab')\nprint(x)", null),
            new StrictCase("print('eval', 'open')", null),
            new StrictCase("def exec_plan():\n    return 1\nexec_plan()", null),
            new StrictCase("x = eval('1')", "eval"),
            new StrictCase("exec('x = 1')", "exec"),
            new StrictCase("f = open", "open"),
            new StrictCase("g = getattr", "getattr"),
            new StrictCase("v = vars()", "vars"),
            new StrictCase("import json\njson.__builtins__", "__builtins__"),
            new StrictCase("import re\nre.compile('a')", "compile"),
            new StrictCase("m = __import__('json')", "__import__"));

    private static SandboxContexts standard;
    private static SandboxContexts strict;

    @BeforeAll
    static void engines() {
        standard = contexts(ImportPolicy.standard(), false);
        strict = contexts(ImportPolicy.unrestricted(), true);
    }

    @AfterAll
    static void close() {
        standard.close();
        strict.close();
    }

    private static SandboxContexts contexts(ImportPolicy imports, boolean strictBuiltins) {
        WorkerSettings settings = new WorkerSettings(65_536, 1_048_576, 1, 500, imports, strictBuiltins, List.of(), "",
                FileLimits.DEFAULT, List.of(), 0);
        return new SandboxContexts(settings, Optional::empty, new ToolBridge(event -> { }),
                new ChartBridge(ChartLimits.DEFAULT));
    }

    @Test
    void theImportGuardAndValidateCodeAnswerEveryImportAlike() {
        // One context for the table: the guard decides before it loads anything, so what an earlier case
        // loaded does not change a later decision.
        PreparedContext prepared = standard.prepare(false);
        try {
            for (ImportCase example : IMPORTS) {
                for (String code : List.of(example.statement(), example.call())) {
                    List<Problem> refusals = reported(prepared, code, "import_not_allowed");
                    RunOutcome ran = run(prepared, code, "<string>");
                    if (example.allowed()) {
                        assertEquals(List.of(), refusals, code);
                        assertEquals(0, ran.exitCode(), code + ": " + ran.errorMessage());
                    } else {
                        assertEquals(1, refusals.size(), code);
                        assertEquals(1, ran.exitCode(), code);
                        assertTrue(ran.errorMessage().startsWith("ImportError: " + refusals.get(0).message()),
                                code + ": the guard says what validate_code says, not " + ran.errorMessage());
                    }
                }
            }
        } finally {
            prepared.context().close(true);
        }
    }

    @Test
    void theStrictCheckAndValidateCodeForbidTheSameNames() {
        // One context for the table: the check refuses before anything runs, and the allowed code changes nothing.
        PreparedContext prepared = strict.prepare(false);
        try {
            for (StrictCase example : STRICT_NAMES) {
                List<Problem> named = reported(prepared, example.code(), "strict_name");
                RunOutcome ran = run(prepared, example.code(), "<string>");
                if (example.forbidden() == null) {
                    assertEquals(List.of(), named, example.code());
                    assertEquals(0, ran.exitCode(), example.code() + ": " + ran.errorMessage());
                } else {
                    String refusal = "'" + example.forbidden() + "' is not allowed in the strict sandbox profile";
                    assertEquals(List.of(refusal), named.stream().map(Problem::message).toList(), example.code());
                    assertEquals(1, ran.exitCode(), example.code());
                    assertTrue(ran.errorMessage().startsWith("PermissionError: " + refusal), ran.errorMessage());
                }
            }
        } finally {
            prepared.context().close(true);
        }
    }

    @Test
    void attackCodeNamedLikeThePreludeIsGuardedLikeAnyUserCode() {
        // The guard trusts the prelude's frames by their file name; the command line names code after any file.
        PreparedContext prepared = standard.prepare(false);
        try {
            String filename = Prelude.userFilename(Prelude.name());
            assertNotEquals(Prelude.name(), filename);
            RunOutcome ran = run(prepared, "__import__('socket')", filename);
            assertEquals(1, ran.exitCode());
            assertTrue(ran.errorMessage().startsWith("ImportError: import of 'socket' is not allowed"), ran.errorMessage());
        } finally {
            prepared.context().close(true);
        }
        assertEquals("script.py", Prelude.userFilename("script.py"));
    }

    @Test
    void userCodeFindsNoneOfThePreludesFunctionsInItsGlobals() {
        PreparedContext prepared = standard.prepare(false);
        try {
            RunOutcome ran = run(prepared, "result = sorted(name for name in globals() if not name.startswith('__'))",
                    "<string>");
            assertEquals(0, ran.exitCode(), ran.errorMessage());
            assertEquals("[\"context\"]", ran.result().json());
        } finally {
            prepared.context().close(true);
        }
    }

    @Test
    void aRunReportsItsExitStatusMessageAndResultByName() {
        PreparedContext prepared = standard.prepare(false);
        try {
            RunOutcome exited = run(prepared, "result = {'a': [1, 2]}\nimport sys\nsys.exit('bye')", "<string>");
            assertEquals(new RunOutcome(1, "bye", new RunOutcome.Result("{\"a\": [1, 2]}", false, false)), exited);
            RunOutcome shown = run(prepared, "result = object", "<string>");
            assertEquals(new RunOutcome.Result("\"<class 'object'>\"", true, false), shown.result());
            RunOutcome failed = run(prepared, "1 / 0", "<string>");
            assertEquals(1, failed.exitCode());
            assertEquals("ZeroDivisionError: division by zero", failed.errorMessage());
            assertNull(failed.result(), "a session's earlier result is reported only when the call names it");
        } finally {
            prepared.context().close(true);
        }
    }

    /** The problems of one kind validate_code reports for the code. */
    private static List<Problem> reported(PreparedContext prepared, String code, String kind) {
        return prepared.runner().validate(code, "{}").errors().stream()
                .filter(problem -> problem.kind().equals(kind)).toList();
    }

    private static RunOutcome run(PreparedContext prepared, String code, String filename) {
        return prepared.runner().run(new GuestRun(code, filename, false, "{}", 65_536, AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
    }
}
