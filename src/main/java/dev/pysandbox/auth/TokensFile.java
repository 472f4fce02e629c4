package dev.pysandbox.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * {@code http.tokens-file} as {@code token add} changes it: every line checked as the server will read it,
 * then one line appended, so the file the server starts with is one it accepts. Lines already there are left
 * as they are, comments included.
 */
public final class TokensFile {
    private final Path file;

    public TokensFile(Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    /** The principals the file names, in order (none while it does not exist); a bad line is an error. */
    public List<String> principals() throws MalformedTokensFile {
        if (!Files.exists(file)) {
            return List.of();
        }
        return BearerTokens.entries(BearerTokens.lines(file), file.toString()).stream()
                .map(BearerTokens.Entry::principal).toList();
    }

    /**
     * Appends the token's line (its digest, never the token), on a line of its own even when the file's last
     * line has no newline. A new file is made readable and writable by its owner only: it holds no secret, but
     * whoever can write it can admit callers.
     */
    public void append(NewToken token) throws IOException {
        principals(); // a file the server would refuse is not added to
        String line = token.line() + "\n";
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else if (Files.size(file) > 0 && !Files.readString(file, StandardCharsets.UTF_8).endsWith("\n")) {
            line = "\n" + line;
        }
        Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
