package dev.pysandbox.auth;

import java.util.Base64;
import java.util.Objects;

import dev.pysandbox.execution.TextDigest;

/**
 * Who calls over HTTP. With {@code http.auth=oauth} a principal is the token's issuer and subject together (a
 * subject is unique only within its issuer); with the tokens file it is the name on the token's line, and with
 * {@code http.auth=none} it is {@link #ANONYMOUS}. Sessions, their per-principal share, the logs and the audit
 * log are keyed by it.
 *
 * @param issuer  the token's {@code iss}; null for a principal of the tokens file
 * @param subject the token's {@code sub}, or the name in the tokens file
 */
public record Principal(String issuer, String subject) {
    /** The one caller of a server without authentication (loopback only). */
    public static final Principal ANONYMOUS = new Principal(null, "anonymous");

    public Principal {
        Objects.requireNonNull(subject, "subject");
    }

    /** A principal the tokens file names. */
    public static Principal named(String name) {
        return new Principal(null, name);
    }

    /**
     * What sessions are keyed by. A tokens-file name as it is (it holds no {@code ':'}, which separates it from
     * the session id). An issuer and subject may hold any character, {@code ':'} included, so they are
     * digested, the issuer's length first, so that no two pairs and no pair and name share a key.
     */
    public String key() {
        if (issuer == null) {
            return subject;
        }
        return "oauth~" + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(TextDigest.sha256(issuer.length() + "/" + issuer + subject));
    }

    /** How logs and the audit log name it: {@code subject@issuer}, or the tokens file's name. */
    public String name() {
        return issuer == null ? subject : subject + "@" + issuer;
    }

    @Override
    public String toString() {
        return name();
    }
}
