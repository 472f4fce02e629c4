package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.wire.WireCodec;

/** The supervisor's handle on a worker trusts nothing the worker sends: here the worker is a shell script. */
class WorkerProcessTest {
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopTimers() {
        timers.shutdownNow();
    }

    @Test
    void attackAWorkerLineLargerThanTheProtocolAllowsEndsTheWorkerAndAnswersItsCall() throws Exception {
        // 20 MB of one line, more than WireCodec.MAX_LINE_BYTES, then a worker that would never answer.
        Process process = new ProcessBuilder("sh", "-c",
                "head -c 20000000 /dev/zero | tr '\\0' a; echo; exec sleep 600").start();
        CountDownLatch gone = new CountDownLatch(1);
        WorkerProcess worker = new WorkerProcess("worker-test", process, timers, Duration.ofSeconds(1),
                Duration.ofSeconds(120), AnswerBudget.of(1024, 1024), new WorkerProcess.Listener() {
                    @Override
                    public void ready(WorkerProcess w, String engine, boolean aotCache) {
                    }

                    @Override
                    public void gone(WorkerProcess w) {
                        gone.countDown();
                    }
                });
        var answer = worker.execute(1, new ExecutionRequest("pass", "", Duration.ofSeconds(60), null, "<string>"),
                ToolBroker.OFF.open(ToolGrant.NONE));
        worker.start();
        ExecutionResult result = answer.get(60, TimeUnit.SECONDS);
        assertEquals(Status.EXECUTION_ERROR, result.status());
        assertTrue(result.errorMessage().contains("larger than the protocol allows (" + WireCodec.MAX_LINE_BYTES),
                result.errorMessage());
        assertTrue(gone.await(30, TimeUnit.SECONDS), "the worker was not ended");
        assertTrue(process.waitFor(30, TimeUnit.SECONDS) && !process.isAlive());
        assertTrue(worker.isGone());
    }
}
