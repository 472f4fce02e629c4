package dev.pysandbox.worker;

import java.util.List;
import java.util.Locale;

import org.graalvm.polyglot.PolyglotException;

import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;

/**
 * What a call that escaped the Python-level runner means for the caller. Python exceptions are caught and
 * reported by the prelude; what reaches Java is an exit ({@code os._exit}), a limit, or the sandbox refusing
 * an operation, which GraalPy raises as a host or internal error the guest cannot catch.
 *
 * <p>Messages are rewritten for the caller: the raw ones name Java classes and builder methods, which tell
 * an attacker how the sandbox is built and tell a user nothing useful.
 */
record GuestFailure(Status status, int exitCode, String message, String stderrLine, boolean recycleWorker) {
    private record Rule(String needle, String explanation) {
    }

    /** Known refusals, matched case-insensitively on the raw message, in the words a user would use. */
    private static final List<Rule> REFUSALS = List.of(
            new Rule("process creation", "starting processes is not allowed"),
            new Rule("creating threads", "creating threads is not allowed"),
            new Rule("socket", "network access is not allowed"),
            new Rule("getaddrinfo", "network access is not allowed"),
            new Rule("signal", "signals are not available"),
            new Rule("operation is not allowed", "access to the host file system is not allowed"),
            new Rule("native", "native code is not allowed"),
            new Rule("host symbol", "access to host classes is not allowed"),
            new Rule("polyglot", "access to other languages is not allowed"));

    static GuestFailure classify(PolyglotException e) {
        if (e.isExit()) {
            int code = e.getExitStatus();
            return code == 0
                    ? new GuestFailure(Status.SUCCESS, 0, null, "", false)
                    : new GuestFailure(Status.EXECUTION_ERROR, code, "Exited with status " + code + ".", "", false);
        }
        if (e.isResourceExhausted()) {
            return new GuestFailure(Status.EXECUTION_ERROR, 1, RunReport.MEMORY_LIMIT_MESSAGE, "MemoryError\n", true);
        }
        if (e.isInterrupted() || e.isCancelled()) {
            return new GuestFailure(Status.EXECUTION_ERROR, 1, "Execution was stopped by the sandbox.", "", true);
        }
        // A refusal means the code tried something hostile or broken: start the next call on a fresh worker.
        String refusal = "Blocked by the sandbox: " + explain(e.getMessage()) + ".";
        return new GuestFailure(Status.EXECUTION_ERROR, 1, refusal, "SandboxError: " + refusal + "\n", true);
    }

    static String explain(String rawMessage) {
        String raw = rawMessage == null ? "" : rawMessage.toLowerCase(Locale.ROOT);
        for (Rule rule : REFUSALS) {
            if (raw.contains(rule.needle())) {
                return rule.explanation();
            }
        }
        return "this operation is not allowed";
    }
}
