package dev.pysandbox.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.execution.TextDigest;

class BearerTokensTest {
    private static String line(String principal, String token) {
        return principal + ":" + HexFormat.of().formatHex(TextDigest.sha256(token));
    }

    @Test
    void aTokenNamesItsPrincipal() throws IOException {
        BearerTokens tokens = BearerTokens.parse(List.of("# callers", "", line("alice", "a-secret"), line("bob", "b-secret")), "t");
        assertEquals(Optional.of("alice"), tokens.principalFor("a-secret"));
        assertEquals(Optional.of("bob"), tokens.principalFor("b-secret"));
    }

    /** Attack: guessing, or presenting the digest itself (the file leaked) instead of the token. */
    @Test
    void anUnknownTokenOrTheDigestItselfIsRefused() throws IOException {
        BearerTokens tokens = BearerTokens.parse(List.of(line("alice", "a-secret")), "t");
        assertEquals(Optional.empty(), tokens.principalFor("a-secreT"));
        assertEquals(Optional.empty(), tokens.principalFor(""));
        assertEquals(Optional.empty(), tokens.principalFor(line("alice", "a-secret").substring(6)));
    }

    @Test
    void digestsAreReadInEitherCase() throws IOException {
        BearerTokens tokens = BearerTokens.parse(List.of(line("alice", "x").toUpperCase().replace("ALICE", "alice")), "t");
        assertTrue(tokens.principalFor("x").isPresent());
    }

    @Test
    void aMalformedLineIsAnErrorNamingItsNumberAndNotItsContent() {
        IOException e = assertThrows(IOException.class,
                () -> BearerTokens.parse(List.of(line("alice", "x"), "bob:plaintext-token"), "tokens"));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        assertFalse(e.getMessage().contains("plaintext-token"), e.getMessage());
    }

    /** What startup prints for a bad line, and all it prints: the file, the line's number, what is wrong. */
    @Test
    void aBadLineInTheFileIsOneLineSayingWhichFileWhichLineAndWhatIsWrong(@TempDir Path temp) throws IOException {
        Path file = Files.writeString(temp.resolve("tokens"), "# callers\n" + line("alice", "x") + "\nbob plaintext-token\n");
        MalformedTokensFile e = assertThrows(MalformedTokensFile.class, () -> BearerTokens.read(file));
        assertEquals(3, e.line());
        assertEquals(file + " line 3: expected 'principal:sha256-hex' (principal of letters, digits and ._@+-; the"
                + " SHA-256 of the token as 64 hex digits)", e.getMessage());
    }

    @Test
    void aMissingFileIsOneLineToo(@TempDir Path temp) {
        Path file = temp.resolve("no-such-tokens");
        MalformedTokensFile e = assertThrows(MalformedTokensFile.class, () -> BearerTokens.read(file));
        assertEquals(0, e.line());
        assertEquals("cannot read http.tokens-file " + file + ": no such file", e.getMessage());
    }

    /** A ':' in a principal would let "a:b" + "c" and "a" + "b:c" make the same session key. */
    @Test
    void principalsCannotContainAColon() {
        assertThrows(IOException.class, () -> BearerTokens.parse(List.of("a:b:" + "0".repeat(64)), "t"));
    }

    @Test
    void aFileWithoutCallersIsRefusedSayingHowToAddOne() {
        MalformedTokensFile e = assertThrows(MalformedTokensFile.class, () -> BearerTokens.parse(List.of("# nobody yet"), "t"));
        assertEquals("t: names no caller: add a line 'principal:sha256-hex' (python-sandbox-mcp token add makes one)",
                e.getMessage());
    }

    @Test
    void theLineWrittenForATokenIsTheLineReadForIt() throws IOException {
        BearerTokens tokens = BearerTokens.parse(List.of(BearerTokens.line("carol", "c-secret")), "t");
        assertEquals(Optional.of("carol"), tokens.principalFor("c-secret"));
        assertThrows(IllegalArgumentException.class, () -> BearerTokens.line("car:ol", "c-secret"));
    }
}
