package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.files.FileLimits;
import dev.pysandbox.polyglot.GuestText;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

class WarmUpTest {
    private static SandboxContexts standard;

    @BeforeAll
    static void engine() {
        WorkerSettings settings = new WorkerSettings(65_536, 1_048_576, 1, 500, ImportPolicy.standard(), false,
                List.of(), "", FileLimits.DEFAULT, List.of(), 0);
        standard = new SandboxContexts(settings, Optional::empty, new ToolBridge(event -> { }),
                new ChartBridge(ChartLimits.DEFAULT));
    }

    @AfterAll
    static void close() {
        standard.close();
    }

    /** A snippet the standard profile refused would warm nothing past its first import. */
    @Test
    void everyWarmUpSnippetRunsInTheStandardProfileAndOnlyTheFailureFails() {
        for (String name : WarmUp.SNIPPETS) {
            PreparedContext prepared = standard.prepare(false);
            try {
                RunOutcome outcome = prepared.runner().run(new GuestRun(GuestText.read(WarmUp.class, "warm-up/" + name + ".py"), "<string>", false, "{}", 65_536, AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
                if (name.endsWith("failure")) {
                    assertEquals(1, outcome.exitCode(), name);
                    assertTrue(outcome.errorMessage().startsWith("KeyError"), outcome.errorMessage());
                } else {
                    assertEquals(0, outcome.exitCode(), () -> name + ": " + outcome.errorMessage());
                }
            } finally {
                prepared.context().close(true);
            }
        }
    }

    @Test
    void anIdleWorkerRunsTheWholeWorkloadAndABusyOneNone() throws InterruptedException {
        WarmUp idle = new WarmUp(standard, WarmUp.SNIPPETS.size(), () -> true);
        idle.run();
        assertEquals(WarmUp.SNIPPETS.size(), idle.completed());

        WarmUp busy = new WarmUp(standard, 3, () -> false);
        Thread thread = new Thread(busy);
        thread.start();
        thread.join(300);
        thread.interrupt();
        thread.join();
        assertEquals(0, busy.completed());
    }
}
