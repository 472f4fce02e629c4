package dev.pysandbox.auth;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * A caller's bearer token as {@code token add} makes it: 256 random bits from the system's strong source, in
 * URL-safe Base64 (43 characters that fit a header without quoting), and the tokens file's line for it, which
 * holds its digest only. The token itself is shown once and kept nowhere: not in the file, not in
 * {@link #toString}, which a log or an exception message might carry.
 */
public final class NewToken {
    private static final int RANDOM_BYTES = 32;

    private final String principal;
    private final String token;

    private NewToken(String principal, String token) {
        this.principal = principal;
        this.token = token;
    }

    /** A fresh token for {@code principal}; a name the tokens file cannot hold is an IllegalArgumentException. */
    public static NewToken forPrincipal(String principal, SecureRandom random) {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        NewToken made = new NewToken(principal, Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
        made.line(); // checks the name
        return made;
    }

    public String principal() {
        return principal;
    }

    /** The token the caller presents ({@code Authorization: Bearer TOKEN}). */
    public String token() {
        return token;
    }

    /** The tokens file's line for it: {@code principal:sha256-hex}. */
    public String line() {
        return BearerTokens.line(principal, token);
    }

    @Override
    public String toString() {
        return "token for " + principal;
    }
}
