package dev.pysandbox.mcp;

import java.util.Set;

import dev.pysandbox.auth.Principal;
import dev.pysandbox.auth.Scope;

/**
 * The transport's part of a tool call: who made it, what it may do, and where its progress notifications go.
 * Over stdio the one client is everybody and may do everything; over HTTP the principal and scopes are the ones
 * the bearer token carries.
 *
 * @param principal     null over stdio; over HTTP the authenticated principal (never null)
 * @param scopes        what the caller may do: every scope over stdio
 * @param progress      sends the call's {@code notifications/progress} to the client that made it
 * @param unrepeatable  told when the call has done something outside its sandbox (its code called one of the
 *                      operator's tools), so that it is never sent again: over HTTP its answer starts then, which
 *                      keeps remote mode's proxy from retrying it on another replica
 */
record Caller(Principal principal, Set<Scope> scopes, CallProgress.Sender progress, Runnable unrepeatable) {
    Caller {
        scopes = Set.copyOf(scopes);
    }

    /** The one client over stdio: everybody, with every scope, whose calls nothing would send again. */
    static Caller stdio(CallProgress.Sender progress) {
        return new Caller(null, Scope.all(), progress, () -> { });
    }

    /** Who the sandbox counts the call's sessions against: the principal's key, or null over stdio. */
    String owner() {
        return principal == null ? null : principal.key();
    }

    /**
     * The sandbox's name for a client's session: over HTTP the principal is part of it, so one principal can
     * never reach another's session whatever id it sends. Principal keys contain no {@code ':'} (the tokens file
     * forbids it; an OAuth principal's key is a digest), so two different pairs never make the same key.
     */
    String sessionKey(String sessionId) {
        return principal == null ? sessionId : principal.key() + ":" + sessionId;
    }
}
