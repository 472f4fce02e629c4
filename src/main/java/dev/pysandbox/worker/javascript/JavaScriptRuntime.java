package dev.pysandbox.worker.javascript;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.SourceSection;
import org.graalvm.polyglot.Value;

/**
 * One context's runtime, installed ({@link JavaScriptEngine#install}): runs user code as Node's {@code node -e}
 * would (a script, or a module when it awaits at its top level), then its timers, and reports how it ended. Each
 * method throws what the context throws when the guest is interrupted or the context fails; an error the code
 * threw is the run's outcome, not an exception.
 */
public final class JavaScriptRuntime {
    /** How long a wait for a timer sleeps before it looks whether the call was stopped. */
    private static final long STOP_CHECK_MILLIS = 10;

    /**
     * How a run ended.
     *
     * @param exitCode     0; the status {@code process.exit} asked for; or 1 for an uncaught error
     * @param errorMessage {@code TypeError: message} for an uncaught error, cut to one character beyond the limit
     *                     asked; null for none
     * @param result       {@code result} as this call left it, or null when the call set none
     */
    public record Outcome(int exitCode, String errorMessage, Result result) {
    }

    /**
     * The {@code result} binding, described.
     *
     * @param json      its JSON text: the value itself, or what console.log shows of it as a JSON string
     * @param isRepr    whether {@code json} holds that text (the value was not plain data or too long)
     * @param truncated whether the text was cut to the limit
     */
    public record Result(String json, boolean isRepr, boolean truncated) {
    }

    private final Context context;
    private final JavaScriptSources sources;
    private final Value runtime;

    JavaScriptRuntime(Context context, JavaScriptSources sources, Value runtime) {
        this.context = context;
        this.sources = sources;
        this.runtime = runtime;
    }

    /**
     * Runs user code (a script, or a module when it awaits at its top level), then its timers.
     *
     * @param filename     the name stacks show for the code
     * @param inputs       the call's {@code inputs} as JSON object text, read as {@code context.inputs}
     * @param resultLimit  how many characters of {@code result}'s JSON are reported
     * @param messageLimit the characters of the error message the answer keeps
     * @param stopped      whether the call was asked to stop, looked at while waiting for a timer
     */
    public Outcome run(String code, String filename, String inputs, int resultLimit, int messageLimit,
            BooleanSupplier stopped) {
        runtime.invokeMember("begin", inputs);
        String failure = null;
        try {
            sources.parse(context, code, filename).execute();
            runTimers(stopped);
        } catch (PolyglotException e) {
            failure = thrown(e, messageLimit);
        }
        int exit = runtime.invokeMember("exitStatus").asInt();
        Value result = runtime.invokeMember("result", resultLimit, code);
        runtime.invokeMember("end");
        Result shown = result.isNull() ? null : new Result(result.getMember("json").asString(),
                result.getMember("is_repr").asBoolean(), result.getMember("truncated").asBoolean());
        if (exit >= 0) {
            return new Outcome(exit, exit == 0 ? null : "Exited with status " + exit + ".", shown);
        }
        return new Outcome(failure == null ? 0 : 1, failure, shown);
    }

    /**
     * Where {@code code} fails to parse, by line and column, or null when it parses (as a script or a module);
     * runs none of it.
     */
    public SyntaxProblem syntaxProblem(String code, String filename) {
        try {
            sources.parse(context, code, filename);
            return null;
        } catch (PolyglotException e) {
            if (!e.isSyntaxError()) {
                throw e;
            }
            SourceSection where = e.getSourceLocation();
            return new SyntaxProblem(where == null ? 1 : where.getStartLine(), where == null ? 1 : where.getStartColumn(),
                    e.getMessage());
        }
    }

    /** Where code fails to parse, and GraalJS's message (which shows the line and a caret). */
    public record SyntaxProblem(int line, int column, String message) {
    }

    /** The message of an error the code threw (after writing it to stderr), or null for process.exit. */
    private String thrown(PolyglotException e, int messageLimit) {
        if (!e.isGuestException() || e.isInterrupted() || e.isCancelled() || e.isExit() || e.isInternalError()) {
            throw e;
        }
        if (e.isSyntaxError()) {
            // Parses neither as a script nor as a module: GraalJS's message shows the line and a caret.
            return runtime.invokeMember("syntaxError", e.getMessage(), messageLimit).asString();
        }
        Value error = e.getGuestObject();
        if (error != null && runtime.invokeMember("isExit", error).asBoolean()) {
            return null;
        }
        return runtime.invokeMember("failure", error, messageLimit).asString();
    }

    /** Runs the timers the code left, each when it is due, until none is left or the call is stopped. */
    private void runTimers(BooleanSupplier stopped) {
        for (long due = nextDue(); due >= 0; due = nextDue()) {
            while (System.currentTimeMillis() < due) {
                if (stopped.getAsBoolean()) {
                    throw new TimersStopped();
                }
                sleep(Math.min(STOP_CHECK_MILLIS, due - System.currentTimeMillis()));
            }
            runtime.invokeMember("runTimer");
        }
    }

    private long nextDue() {
        return runtime.invokeMember("nextTimerDue").asLong();
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(Math.max(1, millis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimersStopped();
        }
    }

    /**
     * The call was stopped while it waited for a timer, outside guest code where no interrupt reaches: the caller
     * answers as for any stop.
     */
    public static final class TimersStopped extends RuntimeException {
        TimersStopped() {
            super("stopped while waiting for a timer", null, false, false);
        }
    }

    /** inspect_session's JSON text: the globals user code added, the largest first. */
    public String state(int limit) {
        return runtime.invokeMember("state", limit).asString();
    }

}
