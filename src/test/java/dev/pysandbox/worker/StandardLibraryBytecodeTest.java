package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/**
 * A worker's contexts import the standard library from bytecode files, compiling no source: the rule that lets
 * every fresh context share the engine's compiled code (BENCHMARKS.md, "Bytecode files").
 */
class StandardLibraryBytecodeTest {
    /** Counts, in a fresh context, every module importlib compiles from source while the code imports. */
    private static final String COUNT_SOURCE_COMPILATIONS = """
            import importlib._bootstrap_external as external
            compiled = []
            original = external.SourceLoader.source_to_code
            def counting(self, data, path, *args, **kwargs):
                compiled.append(path)
                return original(self, data, path, *args, **kwargs)
            external.SourceLoader.source_to_code = counting
            import csv, json, statistics, random, difflib, dataclasses, string, textwrap, fractions, decimal
            import argparse, calendar, email.parser, html.parser, logging, pprint, shlex, typing, uuid, zipfile
            result = compiled
            """;

    private static SandboxContexts contexts;

    @BeforeAll
    static void engine() {
        contexts = new SandboxContexts(WorkerSettings.forImportCheck(), Optional::empty, new ToolBridge(event -> { }),
                new ChartBridge(ChartLimits.DEFAULT));
    }

    @AfterAll
    static void close() {
        contexts.close();
    }

    @Test
    void freshContextsImportTheStandardLibraryWithoutCompilingSource() {
        for (int i = 0; i < 3; i++) {
            RunOutcome outcome = runInAFreshContext(COUNT_SOURCE_COMPILATIONS);
            assertEquals("[]", outcome.result().json(), "modules compiled from source in context " + i);
        }
    }

    @Test
    void theStandardLibrarysBytecodeIsReadOnlyToCode() {
        RunOutcome outcome = runInAFreshContext("""
                    import json, importlib.util
                    cached = importlib.util.cache_from_source(json.__file__)
                    try:
                        open(cached, 'wb').write(b'planted')
                        result = 'written'
                    except OSError as e:
                        result = type(e).__name__
                    """);
        assertNotEquals("\"written\"", outcome.result().json());
    }

    /** Tracing makes GraalPy read a module's bytecode file again, which must work for the files we write (hash-based ones did not). */
    @Test
    void traceFunctionsWorkOnStandardLibraryCodeLoadedFromBytecode() {
        RunOutcome outcome = runInAFreshContext("""
                    import sys, json
                    seen = set()
                    def trace(frame, event, arg):
                        seen.add(frame.f_code.co_filename.rsplit('/', 2)[-2:][0])
                        return trace
                    sys.settrace(trace)
                    json.dumps({'a': [1, 2]}, indent=1)
                    import statistics
                    statistics.mean([1, 2, 3])
                    sys.settrace(None)
                    result = sorted(seen)
                    """);
        assertTrue(outcome.result().json().contains("json"), outcome.result().json());
    }

    /** Runs code in a fresh worker context, which is closed afterwards; the code must succeed. */
    private static RunOutcome runInAFreshContext(String code) {
        PreparedContext prepared = contexts.prepare(false);
        try {
            RunOutcome outcome = prepared.runner().run(new GuestRun(code, "<string>", false, "{}", 65_536, AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
            assertEquals(0, outcome.exitCode(), outcome.errorMessage());
            return outcome;
        } finally {
            prepared.context().close(true);
        }
    }
}
