package dev.pysandbox.mcp;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.ScheduledExecutorService;

import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

import dev.pysandbox.execution.CallPhase;
import dev.pysandbox.execution.CodeRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;
import dev.pysandbox.supervisor.Sandbox;

/**
 * What both tools do once their arguments are checked: the code size rule, then the sandbox, with progress
 * notifications while it runs for calls that asked for them.
 */
final class CodeRunner {
    private final Sandbox sandbox;
    private final int maxCodeBytes;
    private final Duration progressInterval;
    private final ScheduledExecutorService progressTimers;
    private final Consumer<List<String>> installRequests;

    /** @param installRequests told the modules a call found missing that the server installs (auto-install) */
    CodeRunner(Sandbox sandbox, int maxCodeBytes, Duration progressInterval, ScheduledExecutorService progressTimers,
            Consumer<List<String>> installRequests) {
        this.sandbox = sandbox;
        this.installRequests = installRequests;
        this.maxCodeBytes = maxCodeBytes;
        this.progressInterval = progressInterval;
        this.progressTimers = progressTimers;
    }

    /**
     * The tool annotations both tools carry, honest for code that cannot reach anything outside its sandbox:
     * it reads and changes nothing of the client's world (read-only, not destructive), talks to nothing
     * outside (closed world), and may print something different each time it runs (not idempotent).
     */
    static ToolAnnotations annotations(String title) {
        return new ToolAnnotations(title, true, false, false, false, null);
    }

    void checkSize(String code) throws InvalidArgument {
        // Cheap bound first: UTF-8 needs at most 3 bytes per UTF-16 unit.
        if ((long) code.length() * 3 > maxCodeBytes) {
            int bytes = code.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxCodeBytes) {
                throw new InvalidArgument("Argument 'code' is " + bytes + " bytes; the limit is " + maxCodeBytes
                        + " bytes (setting code.max-bytes).");
            }
        }
    }

    /**
     * @param caller        who called, and where its progress notifications go
     * @param progressToken the request's {@code _meta.progressToken}; null for no notifications
     */
    ExecutionResult run(CodeRequest request, Caller caller, Object progressToken) {
        try (CallProgress progress = new CallProgress(progressToken, caller.progress(),
                request.timeout(), progressInterval, progressTimers)) {
            ExecutionResult result = sandbox.execute(request, caller.owner(), phase -> {
                if (phase == CallPhase.CALLED_A_TOOL) {
                    caller.unrepeatable().run();
                } else {
                    progress.accept(phase);
                }
            });
            if (!result.installing().isEmpty()) {
                installRequests.accept(result.installing());
            }
            return result;
        } catch (InterruptedException e) {
            // The client cancelled: the transport sends no answer for this call, so this one goes nowhere.
            Thread.currentThread().interrupt();
            return ExecutionResult.setupError("Cancelled by the client.");
        }
    }
}
