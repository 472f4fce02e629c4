package dev.pysandbox.mcp.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class OriginCheckTest {
    private final OriginCheck loopback = new OriginCheck(List.of("localhost:*", "127.0.0.1:*", "[::1]:*"),
            List.of("http://localhost:*", "http://127.0.0.1:*"));

    @Test
    void loopbackNamesOnAnyPortPass() {
        assertEquals(OriginCheck.OK, loopback.check("127.0.0.1:8080", null));
        assertEquals(OriginCheck.OK, loopback.check("localhost", "http://localhost:3000"));
        assertEquals(OriginCheck.OK, loopback.check("[::1]:9", null));
    }

    /** Attack: DNS rebinding, the page's own name resolving to 127.0.0.1. */
    @Test
    void aForeignHostIs421() {
        assertEquals(421, loopback.check("evil.example.com", null));
        assertEquals(421, loopback.check("localhost.evil.example.com:8080", null));
        assertEquals(421, loopback.check("127.0.0.1:8080x", null));
        assertEquals(421, loopback.check(null, null));
    }

    /** Attack: a page on another site posting to the server from the user's browser. */
    @Test
    void aForeignOriginIs403() {
        assertEquals(403, loopback.check("127.0.0.1:8080", "http://evil.example.com"));
        assertEquals(403, loopback.check("127.0.0.1:8080", "null"));
        assertEquals(403, loopback.check("127.0.0.1:8080", "https://localhost:3000"));
    }

    @Test
    void withoutHostPatternsAnyHostPassesButNoOrigin() {
        OriginCheck open = new OriginCheck(List.of(), List.of());
        assertEquals(OriginCheck.OK, open.check("sandbox.internal:8080", null));
        assertEquals(403, open.check("sandbox.internal:8080", "https://app.example.com"));
    }

    @Test
    void anExactPatternMatchesOnlyItself() {
        OriginCheck exact = new OriginCheck(List.of("sandbox.example.com"), List.of("https://app.example.com"));
        assertEquals(OriginCheck.OK, exact.check("SANDBOX.example.com", "https://app.example.com"));
        assertEquals(421, exact.check("sandbox.example.com:8443", null));
        assertEquals(403, exact.check("sandbox.example.com", "https://app.example.com:444"));
    }
}
