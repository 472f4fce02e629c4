package dev.pysandbox.worker;

import java.util.function.BooleanSupplier;

/**
 * One run of user code, as a call asks it of its context's {@link GuestRunner}.
 *
 * @param code         the source text
 * @param filename     the name tracebacks show for it ({@link Prelude#userFilename})
 * @param fresh        whether the context is the call's own (no session): its code may be shared with other
 *                     fresh contexts, and nothing of it outlives the call
 * @param inputs       the call's {@code inputs} as JSON object text, read by {@code context.inputs}
 * @param resultLimit  how many characters of {@code result}'s JSON are reported
 * @param messageLimit the characters of the error message the answer keeps (the runner cuts one beyond)
 * @param stopped      whether the call has been asked to stop: a runner that waits outside guest code
 *                     (JavaScript's timers), where no interrupt reaches it, looks here
 */
record GuestRun(String code, String filename, boolean fresh, String inputs, int resultLimit, int messageLimit,
        BooleanSupplier stopped) {
}
