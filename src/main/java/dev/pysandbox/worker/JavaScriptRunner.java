package dev.pysandbox.worker;

import java.util.List;

import dev.pysandbox.execution.Language;
import dev.pysandbox.worker.javascript.JavaScriptRuntime;

/** A JavaScript context's runtime ({@code worker/javascript}), as a call sees a context of any language. */
final class JavaScriptRunner implements GuestRunner {
    /** What stacks call code sent as text, as Node's {@code node -e} does. */
    static final String EVAL_FILENAME = "[eval]";
    /** The longest message of a syntax error {@code validate_code} lists, as Python's validation cuts them. */
    private static final int PROBLEM_CHARS = 300;

    private final JavaScriptRuntime runtime;

    JavaScriptRunner(JavaScriptRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public Language language() {
        return Language.JAVASCRIPT;
    }

    @Override
    public RunOutcome run(GuestRun run) {
        JavaScriptRuntime.Outcome outcome = runtime.run(run.code(), filename(run.filename()), run.inputs(),
                run.resultLimit(), run.messageLimit(), run.stopped());
        JavaScriptRuntime.Result result = outcome.result();
        return new RunOutcome(outcome.exitCode(), outcome.errorMessage(), result == null ? null
                : new RunOutcome.Result(result.json(), result.isRepr(), result.truncated()));
    }

    /** Python's name for code sent as text is {@code <string>}; JavaScript's is Node's. */
    private static String filename(String filename) {
        return filename == null || filename.equals("<string>") ? EVAL_FILENAME : filename;
    }

    @Override
    public void finishCharts() {
        // Charts are drawn from Python's matplotlib only.
    }

    @Override
    public void flush() {
        // The console writes through to the call's streams: nothing is buffered in the guest.
    }

    @Override
    public ValidationReport validate(String code, String catalog) {
        JavaScriptRuntime.SyntaxProblem problem = runtime.syntaxProblem(code, EVAL_FILENAME);
        if (problem == null) {
            return new ValidationReport(true, List.of(), 0);
        }
        String message = problem.message().lines().findFirst().orElse("");
        return new ValidationReport(false, List.of(new ValidationReport.Problem(problem.line(), problem.column(),
                "syntax", message.length() > PROBLEM_CHARS ? message.substring(0, PROBLEM_CHARS) : message)), 0);
    }

    @Override
    public String state(int limit, int budget) {
        return runtime.state(limit);
    }

    @Override
    public List<String> installing() {
        return List.of();
    }
}
