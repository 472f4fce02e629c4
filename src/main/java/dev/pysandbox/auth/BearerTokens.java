package dev.pysandbox.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.pysandbox.execution.TextDigest;

/**
 * The callers {@code http.tokens-file} admits: one {@code principal:sha256-hex-of-token} a line, {@code #}
 * for comments. Only digests are stored, so the file leaks no token; a presented token is hashed and compared
 * with every digest in constant time, so neither the time taken nor an early exit says how close a guess was.
 * The line format is read here and written here ({@link #line}), for the server and for {@code token add}.
 * Its callers hold every {@link Scope}.
 */
public final class BearerTokens implements Authenticator {
    /** No ':' (it separates the principal from the session id in session keys) and nothing a log must escape. */
    static final Pattern PRINCIPAL = Pattern.compile("[A-Za-z0-9._@+-]{1,64}");
    private static final Pattern DIGEST = Pattern.compile("[0-9a-fA-F]{64}");

    record Entry(String principal, byte[] digest) {
    }

    private final List<Entry> entries;

    private BearerTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Reads the file; a malformed line is an error naming its number, never echoing a digest. */
    public static BearerTokens read(Path file) throws MalformedTokensFile {
        return parse(lines(file), file.toString());
    }

    public static BearerTokens parse(List<String> lines, String source) throws MalformedTokensFile {
        List<Entry> entries = entries(lines, source);
        if (entries.isEmpty()) {
            throw new MalformedTokensFile(source, 0, "names no caller: add a line 'principal:sha256-hex'"
                    + " (python-sandbox-mcp token add makes one)");
        }
        return new BearerTokens(entries);
    }

    /** The file's lines as text; an unreadable file is a {@link MalformedTokensFile} too. */
    static List<String> lines(Path file) throws MalformedTokensFile {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MalformedTokensFile(file, e);
        }
    }

    /** Every caller the lines name, each line checked; none for a file of comments only. */
    static List<Entry> entries(List<String> lines, String source) throws MalformedTokensFile {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.lastIndexOf(':');
            String principal = colon < 0 ? "" : line.substring(0, colon).strip();
            String digest = colon < 0 ? "" : line.substring(colon + 1).strip();
            if (!PRINCIPAL.matcher(principal).matches() || !DIGEST.matcher(digest).matches()) {
                throw new MalformedTokensFile(source, i + 1, "expected 'principal:sha256-hex' (principal of letters,"
                        + " digits and ._@+-; the SHA-256 of the token as 64 hex digits)");
            }
            entries.add(new Entry(principal, HexFormat.of().parseHex(digest.toLowerCase())));
        }
        return entries;
    }

    /** The file's line admitting {@code token} as {@code principal}: the principal and the token's digest. */
    static String line(String principal, String token) {
        if (!PRINCIPAL.matcher(principal).matches()) {
            throw new IllegalArgumentException("a caller's name is 1 to 64 letters, digits and ._@+-, not '" + principal + "'");
        }
        return principal + ":" + HexFormat.of().formatHex(TextDigest.sha256(token));
    }

    @Override
    public Verdict check(String authorization) {
        String token = Authenticator.bearerToken(authorization);
        if (token == null) {
            return new Refused(Failure.NO_TOKEN, "no bearer token");
        }
        return principalFor(token).<Verdict>map(name -> new Authenticated(Principal.named(name), Scope.all()))
                .orElseGet(() -> new Refused(Failure.INVALID_TOKEN, "unknown token"));
    }

    /** The principal whose token this is, if any. */
    public Optional<String> principalFor(String token) {
        byte[] digest = TextDigest.sha256(token);
        String found = null;
        for (Entry entry : entries) {
            // Every entry is compared, whatever matched before, so the time does not depend on which one did.
            if (MessageDigest.isEqual(entry.digest(), digest) && found == null) {
                found = entry.principal();
            }
        }
        return Optional.ofNullable(found);
    }
}
