package dev.pysandbox.worker;

import java.util.List;

import dev.pysandbox.execution.Language;

/**
 * A context's runtime, installed: what a call asks of it, whatever the language. Python's is the prelude
 * ({@link PythonRunner}), JavaScript's the runtime of {@code worker/javascript} ({@link JavaScriptRunner}). Each
 * method throws what the context throws (a {@code PolyglotException} when the guest is interrupted or fails beyond
 * what the runtime catches); the caller ({@link GuestCall}) decides what that means for the call.
 */
interface GuestRunner {
    /** The language this context runs. */
    Language language();

    /** Runs user code and tells how it ended; the output went to the context's streams meanwhile. */
    RunOutcome run(GuestRun run);

    /** Draws the figures the last run left open, for the call's answer (charts); after a run that ended by itself. */
    void finishCharts();

    /** Flushes the guest's output buffers (a run does so as it ends). */
    void flush();

    /**
     * {@code validate_code}: what would fail in {@code code}, found without running any of it.
     *
     * @param catalog the supervisor's {@code {"allowed": [...], "known": [...]}} tool names, as JSON text
     */
    ValidationReport validate(String code, String catalog);

    /**
     * What the context's globals hold ({@code inspect_session}), running none of its code: the JSON text of
     * {@code {variables: [{name, type, size_bytes, ...}], variables_omitted, size_bytes}}.
     *
     * @param limit  how many variables are listed, the largest first
     * @param budget how many objects are visited per variable before its size is given as a lower bound
     */
    String state(int limit, int budget);

    /** The modules the last run imported missing that the server installs on request (packages.auto-install). */
    List<String> installing();
}
