package dev.pysandbox.execution;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * A text's SHA-256 (of its UTF-8 bytes), for knowing a text again without keeping it: the supervisor's record of
 * code and output it saw, the tokens file's digests, principal keys, the audit log's code digests.
 */
public final class TextDigest {
    private TextDigest() {
    }

    /** The digest as Base64. */
    public static String of(String text) {
        return Base64.getEncoder().encodeToString(sha256(text));
    }

    /** The digest's 32 bytes. */
    public static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
