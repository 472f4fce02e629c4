package dev.pysandbox.mcp;

import java.nio.charset.StandardCharsets;

import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.ExecutionResult;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;
import dev.pysandbox.supervisor.Sandbox;

/** What both tools do once their arguments are checked: the code size rule, then the sandbox. */
final class CodeRunner {
    private final Sandbox sandbox;
    private final int maxCodeBytes;

    CodeRunner(Sandbox sandbox, int maxCodeBytes) {
        this.sandbox = sandbox;
        this.maxCodeBytes = maxCodeBytes;
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

    ExecutionResult run(ExecutionRequest request) {
        try {
            return sandbox.execute(request);
        } catch (InterruptedException e) {
            // The client cancelled: the transport sends no answer for this call, so this one goes nowhere.
            Thread.currentThread().interrupt();
            return ExecutionResult.setupError("Cancelled by the client.");
        }
    }
}
