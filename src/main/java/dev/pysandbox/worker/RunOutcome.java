package dev.pysandbox.worker;

import org.graalvm.polyglot.Value;

/**
 * How a run of user code ended, as the prelude reports it ({@link GuestRunner#run}).
 *
 * @param exitCode     0, a {@code sys.exit} status, or 1 for an exception (also for a status that is no int)
 * @param errorMessage the exception or exit message, at most one character beyond the limit asked; null for none
 * @param result       the {@code result} variable as this call left it, or null when the call set none
 */
record RunOutcome(int exitCode, String errorMessage, Result result) {
    /**
     * The {@code result} variable, described.
     *
     * @param json      its JSON text: the value itself, or its {@code repr} as a JSON string
     * @param isRepr    whether {@code json} holds the repr (the value was not JSON or too long)
     * @param truncated whether the repr was cut to the limit
     */
    record Result(String json, boolean isRepr, boolean truncated) {
    }

    static RunOutcome from(Value outcome) {
        Value code = outcome.getMember("exit_code");
        Value message = outcome.getMember("error_message");
        Value result = outcome.getMember("result");
        return new RunOutcome(code.fitsInInt() ? code.asInt() : 1, message.isNull() ? null : message.asString(),
                result.isNull() ? null : new Result(result.getMember("json").asString(),
                        result.getMember("is_repr").asBoolean(), result.getMember("truncated").asBoolean()));
    }
}
