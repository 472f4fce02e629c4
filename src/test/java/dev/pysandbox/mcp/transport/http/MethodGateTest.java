package dev.pysandbox.mcp.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.pysandbox.mcp.transport.http.MethodGate.Refusal;

/** Which requests reach the servlets of remote mode; HttpTransportIT sends them over a socket. */
class MethodGateTest {
    private static final String MCP = "/mcp";

    @Test
    void onlyPostReachesTheMcpEndpointAndOnlyGetAndHeadReachTheProbes() {
        assertTrue(MethodGate.refusal(MCP, Set.of(), "POST", MCP).isEmpty());
        for (String probe : List.of("/healthz", "/readyz")) {
            assertTrue(MethodGate.refusal(MCP, Set.of(), "GET", probe).isEmpty(), probe);
            assertTrue(MethodGate.refusal(MCP, Set.of(), "HEAD", probe).isEmpty(), probe);
        }
    }

    /** Attack (issue 22, finding 9): TRACE echoed the request with 200 on every path, past the Host check. */
    @Test
    void attackTraceAndOtherMethodsAreRefusedOnEveryPath() {
        for (String method : List.of("TRACE", "OPTIONS", "GET", "HEAD", "DELETE", "PUT", "PATCH", "CONNECT", "post", "BREW")) {
            assertEquals(new Refusal(405, "POST", "Method Not Allowed: this stateless server takes POST only"),
                    MethodGate.refusal(MCP, Set.of(), method, MCP).orElseThrow(), method);
        }
        for (String method : List.of("TRACE", "OPTIONS", "POST", "DELETE", "get")) {
            assertEquals(new Refusal(405, "GET, HEAD", "Method Not Allowed: /healthz takes GET and HEAD only"),
                    MethodGate.refusal(MCP, Set.of(), method, "/healthz").orElseThrow(), method);
            assertEquals(405, MethodGate.refusal(MCP, Set.of(), method, "/readyz").orElseThrow().status(), method);
        }
        for (String path : List.of("/other", "/", "/mcp/", "/MCP", "/healthz/x")) {
            for (String method : List.of("TRACE", "GET", "POST")) {
                assertEquals(new Refusal(404, null, "Not Found: the MCP endpoint is /mcp"),
                        MethodGate.refusal(MCP, Set.of(), method, path).orElseThrow(), method + " " + path);
            }
        }
    }

    @Test
    void theEndpointIsWhereverHttpPathPutsIt() {
        assertTrue(MethodGate.refusal("/api/sandbox", Set.of(), "POST", "/api/sandbox").isEmpty());
        assertEquals(404, MethodGate.refusal("/api/sandbox", Set.of(), "POST", "/mcp").orElseThrow().status());
    }

    /** With OAuth, the protected resource metadata is read with GET, and a browser's preflight is answered. */
    @Test
    void theResourceMetadataTakesGetHeadAndOptionsOnlyAndOnlyWhereServed() {
        Set<String> served = Set.of("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp");
        for (String path : served) {
            for (String method : List.of("GET", "HEAD", "OPTIONS")) {
                assertTrue(MethodGate.refusal(MCP, served, method, path).isEmpty(), method + " " + path);
            }
            for (String method : List.of("POST", "TRACE", "DELETE")) {
                assertEquals(405, MethodGate.refusal(MCP, served, method, path).orElseThrow().status(), method + " " + path);
            }
            assertEquals(404, MethodGate.refusal(MCP, Set.of(), "GET", path).orElseThrow().status(), "without OAuth: " + path);
        }
        assertEquals(404, MethodGate.refusal(MCP, served, "GET", "/.well-known/oauth-protected-resource/other")
                .orElseThrow().status());
    }
}
