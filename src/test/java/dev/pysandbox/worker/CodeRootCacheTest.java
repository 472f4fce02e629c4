package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/**
 * The engine lets go of the compiled code of functions no context holds any more, and keeps the standard
 * library's shared ({@link CodeRootCache}; BENCHMARKS.md, "Sessions that last").
 */
class CodeRootCacheTest {
    /** Defines and calls 3,000 functions, each compiled from new text, and keeps them: what a long session does. */
    private static final String DEFINE = """
            kept = []
            for i in range(3000):
                namespace = {}
                exec(compile(f"def f_{i}(x):\\n    return [x * {i} for _ in range(2)]\\n", "<string>", "exec"), namespace)
                namespace[f"f_{i}"](1)
                kept.append(namespace[f"f_{i}"])
            result = len(kept)
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
    void functionsOfAClosedContextLeaveTheEngineAndThoseOfALiveOneStay() throws InterruptedException {
        CodeRootCache cache = contexts.codeRoots();
        assertNotNull(cache, "this GraalPy keeps every function's root; the cache must be installed");
        defineInAContextThenCloseIt(cache);
        int live = collect(cache, CodeRootCache.RECENT + 200);
        assertTrue(live <= CodeRootCache.RECENT + 200, live + " roots of a closed context's code are still held");
    }

    /** In a method of its own, so that no frame of the test holds the closed context. */
    private static void defineInAContextThenCloseIt(CodeRootCache cache) throws InterruptedException {
        PreparedContext prepared = contexts.prepare(false);
        try {
            RunOutcome outcome = prepared.runner().run(new GuestRun(DEFINE, "<string>", false, "{}", 65_536, AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
            assertEquals(0, outcome.exitCode(), outcome.errorMessage());
            collect(cache, 0);
            // Each function and its comprehension: a live context's code keeps its roots.
            assertTrue(cache.compiledFromSource() >= 6000, cache.compiledFromSource() + " roots held for a live context's 6,000");
        } finally {
            prepared.context().close(true);
        }
    }

    /** Collects garbage until at most {@code target} roots are held, or a second has passed; returns how many are. */
    private static int collect(CodeRootCache cache, int target) throws InterruptedException {
        int live = Integer.MAX_VALUE;
        for (int i = 0; i < 20 && live > target; i++) {
            System.gc();
            Thread.sleep(50);
            live = cache.compiledFromSource();
        }
        return live;
    }
}
