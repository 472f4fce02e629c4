package dev.pysandbox.mcp;

/**
 * Told of each call of the server's tools as it ends: remote mode counts them for its metrics, and the audit log
 * ({@link AuditTrail}) writes them down.
 */
@FunctionalInterface
interface CallObserver {
    /** Does nothing. */
    CallObserver NONE = call -> { };

    void ended(EndedCall call);

    /** This observer, then {@code next}. */
    default CallObserver andThen(CallObserver next) {
        return call -> {
            ended(call);
            next.ended(call);
        };
    }
}
