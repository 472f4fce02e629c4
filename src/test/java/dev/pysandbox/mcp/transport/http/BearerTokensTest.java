package dev.pysandbox.mcp.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class BearerTokensTest {
    private static String line(String principal, String token) {
        return principal + ":" + HexFormat.of().formatHex(BearerTokens.sha256(token));
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

    /** A ':' in a principal would let "a:b" + "c" and "a" + "b:c" make the same session key. */
    @Test
    void principalsCannotContainAColon() {
        assertThrows(IOException.class, () -> BearerTokens.parse(List.of("a:b:" + "0".repeat(64)), "t"));
    }

    @Test
    void aFileWithoutCallersIsRefused() {
        assertThrows(IOException.class, () -> BearerTokens.parse(List.of("# nobody yet"), "t"));
    }
}
