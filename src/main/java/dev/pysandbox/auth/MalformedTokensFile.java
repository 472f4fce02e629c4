package dev.pysandbox.auth;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A tokens file ({@code http.tokens-file}) the server cannot use, said in one line an operator can act on:
 * which file, which line, what is wrong. The message never quotes the line: it may be a token pasted where
 * its digest belongs.
 */
public final class MalformedTokensFile extends IOException {
    private final int line;

    /** @param line the 1-based number of the bad line, or 0 when the file as a whole is the problem */
    MalformedTokensFile(String file, int line, String problem) {
        super(file + (line > 0 ? " line " + line : "") + ": " + problem);
        this.line = line;
    }

    /** The file could not be read at all. */
    MalformedTokensFile(Path file, IOException cause) {
        super("cannot read http.tokens-file " + file + ": " + why(cause), cause);
        this.line = 0;
    }

    /** The file system's exceptions name the file and nothing else; the message already names it. */
    private static String why(IOException cause) {
        return switch (cause) {
            case NoSuchFileException missing -> "no such file";
            case AccessDeniedException denied -> "permission denied";
            default -> String.valueOf(cause.getMessage());
        };
    }

    /** The 1-based number of the bad line, or 0 when the file as a whole is the problem. */
    public int line() {
        return line;
    }
}
