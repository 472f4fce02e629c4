package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolBroker;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.execution.ToolReply;
import dev.pysandbox.wire.WireCodec;
import dev.pysandbox.wire.WorkerCommand;
import dev.pysandbox.wire.WorkerEvent;

/** The supervisor's handle on a worker trusts nothing the worker sends: here the worker is a shell script. */
class WorkerProcessTest {
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopTimers() {
        timers.shutdownNow();
    }

    private static final WorkerProcess.Listener QUIET = new WorkerProcess.Listener() {
        @Override
        public void ready(WorkerProcess w, String engine, boolean aotCache) {
        }

        @Override
        public void gone(WorkerProcess w) {
        }
    };

    /** Tools that answer every request with the same value and remember the operations they were asked for. */
    private record SeenOps(List<ToolOp> ops) implements ToolCalls {
        @Override
        public String handle(ToolOp op, String tool, String params, Duration remaining) {
            ops.add(op);
            return ToolReply.ok("seen").json();
        }

        @Override
        public List<ToolCall> finish(ToolErrorKind inFlightError) {
            return List.of();
        }

        @Override
        public int omitted() {
            return 0;
        }

        @Override
        public String catalog() {
            return "{}";
        }
    }

    @Test
    void attackLinesOfUnknownTypesOrNoProtocolAreSkippedAndAnUnknownToolOperationIsStillAnswered(@TempDir Path dir)
            throws Exception {
        String result = WireCodec.encode(new WorkerEvent.Result(1, new ExecutionResult(Status.SUCCESS, "done\n", "", 0,
                0.1, null, null, ExecutionResult.Truncation.NONE), false));
        Path sent = dir.resolve("sent");
        String script = String.join("\n",
                "echo 'OpenJDK 64-Bit Server VM warning: not protocol'",
                "echo '{\"type\":\"reboot\",\"id\":1}'",
                "echo '[\"started\",1]'",
                "read -r execute",
                "echo '{\"type\":\"started\",\"id\":1}'",
                "echo '{\"type\":\"tool-call\",\"id\":1,\"seq\":7,\"op\":\"format_disk\",\"tool\":\"srv.x\"}'",
                "read -r reply",
                "printf '%s\\n' \"$execute\" \"$reply\" > '" + sent + "'",
                "printf '%s\\n' '" + result + "'", // dash's echo would read the JSON's \\n as a newline
                "exec sleep 600");
        Process process = new ProcessBuilder("sh", "-c", script).start();
        WorkerProcess worker = new WorkerProcess("worker-test", process, timers, Duration.ofSeconds(1),
                Duration.ofSeconds(120), AnswerBudget.of(1024, 1024), QUIET);
        SeenOps tools = new SeenOps(new CopyOnWriteArrayList<>());
        try {
            var answer = worker.execute(1, new ExecutionRequest("pass", "", Duration.ofSeconds(60), null, "<string>"),
                    tools);
            worker.start();
            ExecutionResult answered = answer.get(60, TimeUnit.SECONDS);
            assertEquals(Status.SUCCESS, answered.status(), answered.toString());
            assertEquals("done\n", answered.stdout());
            assertTrue(!worker.isGone(), "stray lines do not end the worker");
            List<String> lines = Files.readAllLines(sent);
            assertTrue(WireCodec.decode(lines.get(0), WorkerCommand.class) instanceof WorkerCommand.Execute execute
                    && execute.id() == 1 && execute.code().equals("pass"), lines.get(0));
            assertEquals(new WorkerCommand.ToolResult(1, 7, ToolReply.ok("seen").json()),
                    WireCodec.decode(lines.get(1), WorkerCommand.class));
            assertEquals(1, tools.ops().size());
            assertNull(tools.ops().get(0), "the unknown operation reaches the tools, which refuse it, as null");
        } finally {
            worker.kill();
        }
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
