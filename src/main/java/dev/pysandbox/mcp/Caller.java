package dev.pysandbox.mcp;

/**
 * The transport's part of a tool call: who made it, and where its progress notifications go. Over stdio the
 * one client is everybody; over HTTP the principal is the one the bearer token names.
 *
 * @param principal     null over stdio; over HTTP the authenticated principal (never null)
 * @param progress      sends the call's {@code notifications/progress} to the client that made it
 * @param unrepeatable  told when the call has done something outside its sandbox (its code called one of the
 *                      operator's tools), so that it is never sent again: over HTTP its answer starts then, which
 *                      keeps remote mode's proxy from retrying it on another replica
 */
record Caller(String principal, CallProgress.Sender progress, Runnable unrepeatable) {
    /** A caller whose calls nothing would send again (stdio). */
    Caller(String principal, CallProgress.Sender progress) {
        this(principal, progress, () -> { });
    }

    /**
     * The sandbox's name for a client's session: over HTTP the principal is part of it, so one principal can
     * never reach another's session whatever id it sends. Principals contain no {@code ':'} (the tokens file
     * forbids it), so two different pairs never make the same key.
     */
    String sessionKey(String sessionId) {
        return principal == null ? sessionId : principal + ":" + sessionId;
    }
}
