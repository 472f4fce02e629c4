package dev.pysandbox.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;

import dev.pysandbox.auth.MalformedTokensFile;
import dev.pysandbox.auth.NewToken;
import dev.pysandbox.auth.TokensFile;

/**
 * {@code token add [--name NAME]}: admits one more caller to remote mode. It makes a strong random token,
 * prints it once on stdout (so that {@code TOKEN=$(bin/python-sandbox-mcp token add ...)} captures it and
 * nothing else), and appends only its digest to {@code http.tokens-file}, the file the server reads: the
 * tokens file never holds a token (SECURITY.md, remote mode).
 */
public final class TokenCommand {
    /** @param name the caller's principal, or null for the first free {@code caller-N} */
    public record Input(String name) {
    }

    private final Input input;
    /** {@code http.tokens-file}; null when the configuration names none. */
    private final Path tokensFile;

    public TokenCommand(Input input, Path tokensFile) {
        this.input = input;
        this.tokensFile = tokensFile;
    }

    /** Returns the process exit code: 0 added, 2 nothing added (the message on {@code messages} says why). */
    public int execute(PrintStream out, PrintStream messages) {
        if (tokensFile == null) {
            messages.println("python-sandbox-mcp token add: name the tokens file with --http.tokens-file=FILE"
                    + " (it is made if it does not exist)");
            return 2;
        }
        TokensFile file = new TokensFile(tokensFile);
        try {
            List<String> principals = file.principals();
            String name = input.name() != null ? input.name() : firstFree(principals);
            NewToken token = NewToken.forPrincipal(name, new SecureRandom());
            file.append(token);
            out.println(token.token());
            messages.println("python-sandbox-mcp token add: added caller '" + name + "' to " + file.path()
                    + (principals.contains(name) ? " (its other tokens stay valid)" : "")
                    + "; the token above is shown this once and stored nowhere (the file holds its SHA-256 only)");
            return 0;
        } catch (MalformedTokensFile | IllegalArgumentException e) {
            messages.println("python-sandbox-mcp token add: " + e.getMessage() + "; nothing was added");
            return 2;
        } catch (IOException e) {
            messages.println("python-sandbox-mcp token add: cannot write " + tokensFile + " (" + e + "); nothing was added");
            return 2;
        }
    }

    /** {@code caller-1}, {@code caller-2}, ...: the first the file does not name yet. */
    static String firstFree(List<String> principals) {
        for (int n = 1; ; n++) {
            if (!principals.contains("caller-" + n)) {
                return "caller-" + n;
            }
        }
    }
}
