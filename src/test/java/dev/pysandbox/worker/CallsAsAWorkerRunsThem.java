package dev.pysandbox.worker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.pysandbox.execution.RunReport;
import dev.pysandbox.wire.WorkerCommand;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/** For the tests: one call run in a prepared context as the worker runs it ({@link GuestCall}), and its answer. */
final class CallsAsAWorkerRunsThem {
    /** A call's report and whether the worker asked to be replaced. */
    record Answer(RunReport result, boolean recycle) {
    }

    private CallsAsAWorkerRunsThem() {
    }

    /** Runs the call on this thread, its streams detached afterwards; the context stays as the call left it. */
    static Answer answer(PreparedContext prepared, WorkerCommand.Call command, WorkerSettings settings,
            ScheduledExecutorService watchdog, ToolBridge tools, ChartBridge charts) throws Exception {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        new GuestCall(prepared, command, settings, watchdog, tools, charts,
                (result, recycle) -> answer.complete(new Answer(result, recycle))).run();
        prepared.streams().detach();
        return answer.get(60, TimeUnit.SECONDS);
    }
}
