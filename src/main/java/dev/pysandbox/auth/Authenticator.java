package dev.pysandbox.auth;

import java.util.Set;

/**
 * Says who presents a request's {@code Authorization} header, and what they may do: the tokens file
 * ({@link BearerTokens}), an OAuth authorization server's JWTs ({@code auth.oauth.JwtAccessTokens}), or nobody
 * ({@link #ANYONE}, loopback only). Errors are values: a refusal says which kind, for the status and the
 * {@code WWW-Authenticate} the transport answers with, and why, for the log (never the token itself).
 */
public interface Authenticator {
    /** {@code http.auth=none}: every request is {@link Principal#ANONYMOUS}, with every scope. */
    Authenticator ANYONE = authorization -> new Authenticated(Principal.ANONYMOUS, Scope.all());

    /** @param authorization the header's value as sent; null when absent */
    Verdict check(String authorization);

    /** A request's verdict. */
    sealed interface Verdict permits Authenticated, Refused {
    }

    /** A caller, and the scopes its token carries. */
    record Authenticated(Principal principal, Set<Scope> scopes) implements Verdict {
        public Authenticated {
            scopes = Set.copyOf(scopes);
        }
    }

    /**
     * A request refused.
     *
     * @param reason why, for the log and the client; never the token or a claim's value
     */
    record Refused(Failure failure, String reason) implements Verdict {
        /** A reason is written to the log and to a header: printable ASCII only, and short. */
        public Refused {
            String cut = reason.length() > 200 ? reason.substring(0, 200) + "..." : reason;
            reason = cut.replaceAll("[^\\x20-\\x7e]", "?");
        }
    }

    /** Why a request is refused; each kind has its status and its {@code WWW-Authenticate} error. */
    enum Failure {
        /** No bearer token: 401, without an error code (RFC 6750 §3.1). */
        NO_TOKEN,
        /** A token that is not valid here, for whatever reason: 401 {@code invalid_token}. */
        INVALID_TOKEN,
        /** The authorization server's keys or metadata could not be read: 503, the token may be fine. */
        KEYS_UNAVAILABLE
    }

    /**
     * The bearer token of an {@code Authorization} header: null when there is none (no header, another scheme),
     * empty when the header names the scheme but no token, which is a token that is not valid.
     */
    static String bearerToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return authorization.substring(7).strip();
    }
}
