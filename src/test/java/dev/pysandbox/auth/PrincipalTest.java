package dev.pysandbox.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** A principal's key separates callers' sessions: no two principals may share one. */
class PrincipalTest {
    @Test
    void theTokensFilesNamesAreTheirOwnKeys() {
        assertEquals("alice", Principal.named("alice").key());
        assertEquals("alice", Principal.named("alice").name());
    }

    /** Attack: an issuer and subject chosen so that their concatenation equals another pair's. */
    @Test
    void attackPairsThatConcatenateAlikeGetDifferentKeys() {
        Principal a = new Principal("https://idp.example.com/a", "b");
        Principal b = new Principal("https://idp.example.com/", "ab");
        Principal c = new Principal("https://idp.example.com/ab", "");
        assertNotEquals(a.key(), b.key());
        assertNotEquals(a.key(), c.key());
        assertNotEquals(b.key(), c.key());
        assertEquals(a.key(), new Principal("https://idp.example.com/a", "b").key());
    }

    /** The session key is the principal's key, ':' and the session id: a key with ':' could be forged. */
    @Test
    void attackAnOAuthKeyHoldsNoColonWhateverTheSubject() {
        for (Principal p : List.of(new Principal("https://idp", "x:y"), new Principal("urn:a:b", "c:d:e"))) {
            assertFalse(p.key().contains(":"), p.key());
            assertTrue(p.key().startsWith("oauth~"), p.key());
        }
        assertEquals("x:y@https://idp", new Principal("https://idp", "x:y").name());
    }

    @Test
    void scopesAreReadFromTheirNamesAndOthersAreIgnored() {
        assertEquals(Set.of(Scope.EXECUTE), Scope.named(List.of("openid", "sandbox:execute", "sandbox:executes")));
        assertEquals(Scope.all(), Scope.named(List.of("sandbox:tools", "sandbox:execute")));
        assertEquals("sandbox:execute sandbox:tools", Scope.wireNames(Set.of(Scope.TOOLS, Scope.EXECUTE)));
        assertEquals("", Scope.wireNames(Set.of()));
    }
}
