package dev.pysandbox.worker;

import java.util.ArrayList;
import java.util.List;

import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/**
 * One context's prelude, installed ({@link Prelude#install}): runs user code there, checks code without running
 * it, and reports what the guest leaves behind. Each method throws what the context throws (a
 * {@link PolyglotException} when the guest is interrupted or fails beyond what the prelude catches); the caller
 * decides what that means for the call.
 */
final class GuestRunner {
    private final Value run;
    private final Value validate;
    private final Value flush;
    private final Value installing;
    private final Value state;
    private final Value finishCharts;

    GuestRunner(Value runner) {
        this.run = runner.getMember("run");
        this.validate = runner.getMember("validate");
        this.flush = runner.getMember("flush");
        this.installing = runner.getMember("installing");
        this.state = runner.getMember("state");
        this.finishCharts = runner.getMember("finish_charts");
    }

    /**
     * Draws the figures the last run left open, for the call's answer (charts). Called after a run that ended by
     * itself, within the call's time: not from the run's own {@code finally}, where a run being interrupted would
     * call into the guest while it unwinds (which GraalPy 25.2 refuses with an internal error).
     */
    void finishCharts() {
        finishCharts.executeVoid();
        flush.executeVoid(); // what it said of a figure it could not draw
    }

    /**
     * Runs user code in the context's {@code __main__}.
     *
     * @param code         the code, compiled by the prelude when {@code module} is null
     * @param filename     the name tracebacks show for it ({@link Prelude#userFilename})
     * @param resultLimit  how many characters of {@code result}'s JSON are reported
     * @param module       the code parsed beforehand as a shared module ({@link SharedCode}), or null
     * @param inputs       the call's {@code inputs} as JSON text, read by {@code context.inputs}
     * @param messageLimit the characters of the error message the answer keeps (the prelude cuts one beyond)
     */
    RunOutcome run(String code, String filename, int resultLimit, Value module, String inputs, int messageLimit) {
        return RunOutcome.from(run.execute(code, filename, resultLimit, module, inputs, messageLimit));
    }

    /**
     * {@code validate_code}: what would fail in {@code code}, found by parsing alone, against the same import
     * and strict-name rules a run enforces.
     *
     * @param catalog the supervisor's {@code {"allowed": [...], "known": [...]}} tool names, as JSON text
     */
    ValidationReport validate(String code, String catalog) {
        return ValidationReport.fromJson(validate.execute(code, catalog).asString());
    }

    /**
     * What the context's {@code __main__} holds ({@code inspect_session}), running none of its code: the JSON text
     * of {@code {variables: [{name, type, size_bytes, length?, size_is_partial?}], variables_omitted, size_bytes}}.
     *
     * @param limit  how many variables are listed, the largest first
     * @param budget how many objects are visited per variable before its size is given as a lower bound
     */
    String state(int limit, int budget) {
        return state.execute(limit, budget).asString();
    }

    /** Flushes the guest's output streams and the files it opened for writing (a run does so as it ends). */
    void flush() {
        flush.executeVoid();
    }

    /** The modules the last run imported missing that the server installs on request (packages.auto-install). */
    List<String> installing() {
        List<String> names = new ArrayList<>();
        for (long i = 0; i < installing.getArraySize(); i++) {
            names.add(installing.getArrayElement(i).asString());
        }
        return names;
    }
}
