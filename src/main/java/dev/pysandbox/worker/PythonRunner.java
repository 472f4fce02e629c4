package dev.pysandbox.worker;

import java.util.ArrayList;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

import dev.pysandbox.execution.Language;

/**
 * A Python context's prelude, installed ({@link Prelude#install}): runs user code there, checks code without
 * running it, and reports what the guest leaves behind. Each method throws what the context throws (a
 * {@link PolyglotException} when the guest is interrupted or fails beyond what the prelude catches); the caller
 * decides what that means for the call.
 */
final class PythonRunner implements GuestRunner {
    private final Context context;
    private final SharedCode sharedCode;
    private final Value run;
    private final Value validate;
    private final Value flush;
    private final Value installing;
    private final Value state;
    private final Value finishCharts;

    /**
     * @param context    the context the prelude was installed in
     * @param sharedCode the engine's recent snippets, whose compiled code fresh contexts share
     * @param runner     what the prelude's install returned
     */
    PythonRunner(Context context, SharedCode sharedCode, Value runner) {
        this.context = context;
        this.sharedCode = sharedCode;
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
    @Override
    public void finishCharts() {
        finishCharts.executeVoid();
        flush.executeVoid(); // what it said of a figure it could not draw
    }

    @Override
    public Language language() {
        return Language.PYTHON;
    }

    /**
     * Runs user code in the context's {@code __main__}. A fresh context runs the code parsed as a shared module
     * ({@link SharedCode}); a session's compiles it in the prelude instead, which reports {@code result} only for
     * calls whose code names it, and where a SystemExit that escaped a parsed module would end the session.
     */
    @Override
    public RunOutcome run(GuestRun run) {
        Value module = run.fresh() ? sharedCode.parse(context, run.code(), run.filename()) : null;
        return RunOutcome.from(this.run.execute(run.code(), run.filename(), run.resultLimit(), module, run.inputs(),
                run.messageLimit()));
    }

    /**
     * {@code validate_code}: what would fail in {@code code}, found by parsing alone, against the same import
     * and strict-name rules a run enforces.
     *
     * @param catalog the supervisor's {@code {"allowed": [...], "known": [...]}} tool names, as JSON text
     */
    @Override
    public ValidationReport validate(String code, String catalog) {
        return ValidationReport.fromJson(validate.execute(code, catalog).asString());
    }

    /**
     * What the context's {@code __main__} holds ({@code inspect_session}), running none of its code: the JSON text
     * of {@code {variables: [{name, type, size_bytes, length?, size_is_partial?}], variables_omitted, size_bytes}}.
     *
     * @param limit  how many variables are listed, the largest first
     * @param budget how many objects are visited per variable before its size is given as a lower bound
     */
    @Override
    public String state(int limit, int budget) {
        return state.execute(limit, budget).asString();
    }

    /** Flushes the guest's output streams and the files it opened for writing (a run does so as it ends). */
    @Override
    public void flush() {
        flush.executeVoid();
    }

    /** The modules the last run imported missing that the server installs on request (packages.auto-install). */
    @Override
    public List<String> installing() {
        List<String> names = new ArrayList<>();
        for (long i = 0; i < installing.getArraySize(); i++) {
            names.add(installing.getArrayElement(i).asString());
        }
        return names;
    }
}
