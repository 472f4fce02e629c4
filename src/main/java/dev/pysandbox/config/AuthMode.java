package dev.pysandbox.config;

/** {@code http.auth}: how remote mode knows its callers. */
public enum AuthMode {
    /** Bearer tokens whose digests {@code http.tokens-file} lists. */
    TOKEN,
    /** JWT access tokens of an OAuth authorization server ({@link OAuthSettings}). */
    OAUTH,
    /** Nobody is asked; loopback only. */
    NONE
}
