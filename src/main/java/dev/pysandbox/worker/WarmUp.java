package dev.pysandbox.worker;

import java.util.List;
import java.util.function.BooleanSupplier;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.polyglot.GuestText;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/**
 * Warms a new worker while it is idle, by running a training workload that ships with the server
 * ({@code warm-up/*.py}: tables, records, text, dates, numbers, algorithms, bytes, an error) in fresh contexts,
 * as calls run. A just-started worker ran agent code markedly slower than one that had served a couple of hundred
 * calls (BENCHMARKS.md, "Warm-up"): the JVM had yet to compile GraalPy's interpreter, and the standard
 * library's shared code had yet to run. The workload is not the benchmark's corpus, which stays the yardstick.
 *
 * <p>It never holds up a call: it runs at the lowest scheduling priority ({@link BackgroundPriority}), so that
 * other workers' calls keep the CPU, and only while its own worker is idle (no call waiting or running, its
 * ready contexts built), and a call that arrives cancels the snippet in progress (its context is closed from the
 * call's side, and the snippet's thread unwinds on its own). Each snippet gets a fresh context, closed after it,
 * so it leaves nothing a call could see.
 */
final class WarmUp implements Runnable {
    static final List<String> SNIPPETS = List.of("01_tables", "02_records", "03_text", "04_dates", "05_numbers",
            "06_algorithms", "07_hashing", "08_failure");
    /** How long the warm-up waits before looking again whether the worker is idle. */
    private static final long IDLE_POLL_MILLIS = 50;

    private final SandboxContexts contexts;
    private final int runs;
    private final BooleanSupplier idle;
    private final List<String> snippets = SNIPPETS.stream().map(WarmUp::read).toList();
    private volatile Context running;
    private volatile int completed;

    /**
     * @param runs how many snippets to run in all ({@code worker.warm-up-runs}); 0 runs none
     * @param idle whether no call is waiting or running now
     */
    WarmUp(SandboxContexts contexts, int runs, BooleanSupplier idle) {
        this.contexts = contexts;
        this.runs = runs;
        this.idle = idle;
    }

    @Override
    public void run() {
        String notLowered = BackgroundPriority.lowerCurrentThread();
        if (notLowered != null) {
            System.err.println("worker: the warm-up runs at normal priority (" + notLowered + ")");
        }
        long start = System.nanoTime();
        int next = 0;
        while (next < runs) {
            try {
                if (!idle.getAsBoolean()) {
                    Thread.sleep(IDLE_POLL_MILLIS);
                    continue;
                }
                if (runOnce(snippets.get(next % snippets.size()), next)) {
                    completed++;
                }
                next++;
            } catch (InterruptedException e) {
                return;
            } catch (PolyglotException e) {
                if (!e.isCancelled()) { // cancelled: a call arrived, as it should
                    System.err.println("worker: a warm-up snippet failed: " + e);
                }
                next++;
            } catch (RuntimeException e) {
                // A snippet that failed is not worth stopping the worker for: it warms less, and says so.
                System.err.println("worker: a warm-up snippet failed: " + e);
                next++;
            }
        }
        // Said so that an operator (and a benchmark waiting for an idle server) can see when a worker is warm.
        System.err.println("worker: warmed up: " + completed + " of " + runs + " snippets ran to their end in "
                + (System.nanoTime() - start) / 1_000_000_000 + " s");
    }

    /** @return whether the snippet ran to its end (a call may have cancelled it) */
    private boolean runOnce(String code, int run) {
        PreparedContext prepared = contexts.prepare(false);
        running = prepared.context();
        try {
            // Published before this second look, as yieldToCall() publishes its call before looking at `running`:
            // one of the two always sees the other.
            if (!idle.getAsBoolean()) {
                return false;
            }
            // A comment that changes each run makes the text new each time, as an agent's calls are.
            // Compiled in the prelude, not shared (fresh: false): the text is never sent again.
            prepared.runner().run(new GuestRun("# warm-up " + run + "\n" + code, "<string>", false, "{}", 4096,
                    AnswerBudget.ERROR_MESSAGE_CHARS, () -> false));
            return true;
        } finally {
            running = null;
            prepared.context().close(true);
        }
    }

    /** Called when a call arrives (after it is counted as waiting): cancels the snippet in progress, if any. */
    void yieldToCall() {
        Context context = running;
        if (context != null) {
            try {
                context.close(true);
            } catch (RuntimeException e) {
                // Already closed by the warm-up itself: nothing is running.
            }
        }
    }

    /** How many snippets ran to their end. */
    int completed() {
        return completed;
    }

    private static String read(String name) {
        return GuestText.read(WarmUp.class, "warm-up/" + name + ".py");
    }
}
