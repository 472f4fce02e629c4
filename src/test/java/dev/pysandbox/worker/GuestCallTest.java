package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.graalvm.polyglot.PolyglotException;
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
 * What stopping a call at its timeout means for the worker, in real contexts: code the interrupt stops keeps
 * its worker (SECURITY.md, "Recycling"); a call of its own has its context closed before the answer, a
 * session's survives with the state the code left.
 */
class GuestCallTest {
    /** For the runaway code: short, so the tests are quick; the rule does not depend on it. */
    private static final long RUNAWAY_TIMEOUT_MILLIS = 300;
    /** For the code that must finish: long enough for a cold context on a loaded machine. */
    private static final long FINISHING_TIMEOUT_MILLIS = 60_000;

    private static final WorkerSettings SETTINGS = new WorkerSettings(65_536, 1_048_576, 1, 500,
            ImportPolicy.standard(), false, List.of(), "", FileLimits.DEFAULT, List.of(), 0);
    private static SandboxContexts contexts;
    private static ScheduledExecutorService watchdog;
    private static final ToolBridge TOOLS = new ToolBridge(event -> { });
    private static final ChartBridge CHARTS = new ChartBridge(ChartLimits.DEFAULT);

    @BeforeAll
    static void engine() {
        contexts = new SandboxContexts(SETTINGS, Optional::empty, TOOLS, CHARTS);
        watchdog = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    static void close() {
        watchdog.shutdownNow();
        contexts.close();
    }

    private static Answer run(PreparedContext prepared, String code, String session, long timeoutMillis)
            throws Exception {
        return CallsAsAWorkerRunsThem.answer(prepared, new WorkerCommand.Execute(1, Language.PYTHON, code, "",
                timeoutMillis, session, "<string>", null, null, null), SETTINGS, watchdog, TOOLS, CHARTS);
    }

    @Test
    void codeInterruptedAtItsTimeoutKeepsItsWorkerAndItsContextIsClosedBeforeTheAnswer() throws Exception {
        PreparedContext prepared = contexts.prepare(false);
        Answer answer = run(prepared, "while True:\n    pass", null, RUNAWAY_TIMEOUT_MILLIS);
        assertEquals(Status.TIMEOUT, answer.result().status(), answer.result()::toString);
        assertEquals("Execution timed out after 0.3 seconds.", answer.result().errorMessage());
        assertFalse(answer.recycle(), "a clean stop keeps the worker");
        PolyglotException closed = assertThrows(PolyglotException.class, () -> prepared.context().eval("python", "1"));
        assertTrue(closed.isCancelled(), "the call's context is closed: " + closed);
        assertDoesNotThrow(() -> prepared.context().close(true), "the worker closes it again after the call");
    }

    @Test
    void codeCatchingEveryExceptionIsStillStoppedCleanly() throws Exception {
        Answer answer = run(contexts.prepare(false),
                "while True:\n    try:\n        while True: pass\n    except BaseException:\n        pass", null,
                RUNAWAY_TIMEOUT_MILLIS);
        assertEquals(Status.TIMEOUT, answer.result().status(), answer.result()::toString);
        assertFalse(answer.recycle());
    }

    @Test
    void aSessionInterruptedAtItsTimeoutKeepsTheStateTheCodeLeftAndSaysSo() throws Exception {
        PreparedContext session = contexts.prepare(false);
        try {
            Answer before = run(session, "n = 0", "s", FINISHING_TIMEOUT_MILLIS);
            assertEquals(Status.SUCCESS, before.result().status(), before.result()::toString);
            Answer stopped = run(session, "while True:\n    n += 1", "s", RUNAWAY_TIMEOUT_MILLIS);
            assertEquals(Status.TIMEOUT, stopped.result().status(), stopped.result()::toString);
            assertFalse(stopped.recycle());
            assertTrue(stopped.result().errorMessage().contains("The session is kept"), stopped.result().errorMessage());
            Answer after = run(session, "print(n > 0)", "s", FINISHING_TIMEOUT_MILLIS);
            assertEquals("True\n", after.result().stdout(), after.result()::toString);
        } finally {
            session.context().close(true);
        }
    }
}
