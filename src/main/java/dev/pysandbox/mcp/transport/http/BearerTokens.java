package dev.pysandbox.mcp.transport.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The callers {@code http.tokens-file} admits: one {@code principal:sha256-hex-of-token} a line, {@code #}
 * for comments. Only digests are stored, so the file leaks no token; a presented token is hashed and compared
 * with every digest in constant time, so neither the time taken nor an early exit says how close a guess was.
 */
public final class BearerTokens {
    /** No ':' (it separates the principal from the session id in session keys) and nothing a log must escape. */
    static final Pattern PRINCIPAL = Pattern.compile("[A-Za-z0-9._@+-]{1,64}");
    private static final Pattern DIGEST = Pattern.compile("[0-9a-fA-F]{64}");

    private record Entry(String principal, byte[] digest) {
    }

    private final List<Entry> entries;

    private BearerTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Reads the file; a malformed line is an error naming its number, never echoing a digest. */
    public static BearerTokens read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException("cannot read http.tokens-file " + file + ": " + e.getMessage(), e);
        }
        return parse(lines, file.toString());
    }

    static BearerTokens parse(List<String> lines, String source) throws IOException {
        List<Entry> entries = new ArrayList<>();
        Set<String> principals = new LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.lastIndexOf(':');
            String principal = colon < 0 ? "" : line.substring(0, colon).strip();
            String digest = colon < 0 ? "" : line.substring(colon + 1).strip();
            if (!PRINCIPAL.matcher(principal).matches() || !DIGEST.matcher(digest).matches()) {
                throw new IOException(source + " line " + (i + 1) + ": expected 'principal:sha256-hex' (principal of"
                        + " letters, digits and ._@+-; the SHA-256 of the token as 64 hex digits)");
            }
            principals.add(principal);
            entries.add(new Entry(principal, HexFormat.of().parseHex(digest.toLowerCase())));
        }
        if (entries.isEmpty()) {
            throw new IOException(source + " names no caller: add a line 'principal:sha256-hex'");
        }
        return new BearerTokens(entries);
    }

    /** The principal whose token this is, if any. */
    public Optional<String> principalFor(String token) {
        byte[] digest = sha256(token);
        String found = null;
        for (Entry entry : entries) {
            // Every entry is compared, whatever matched before, so the time does not depend on which one did.
            if (MessageDigest.isEqual(entry.digest(), digest) && found == null) {
                found = entry.principal();
            }
        }
        return Optional.ofNullable(found);
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
