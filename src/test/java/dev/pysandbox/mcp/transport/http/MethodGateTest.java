package dev.pysandbox.mcp.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.pysandbox.mcp.transport.http.MethodGate.Refusal;

/** Which requests reach the servlets of remote mode; HttpTransportIT sends them over a socket. */
class MethodGateTest {
    private static final String MCP = "/mcp";

    @Test
    void onlyPostReachesTheMcpEndpointAndOnlyGetAndHeadReachTheProbes() {
        assertTrue(MethodGate.refusal(MCP, "POST", MCP).isEmpty());
        for (String probe : List.of("/healthz", "/readyz")) {
            assertTrue(MethodGate.refusal(MCP, "GET", probe).isEmpty(), probe);
            assertTrue(MethodGate.refusal(MCP, "HEAD", probe).isEmpty(), probe);
        }
    }

    /** Attack (issue 22, finding 9): TRACE echoed the request with 200 on every path, past the Host check. */
    @Test
    void attackTraceAndOtherMethodsAreRefusedOnEveryPath() {
        for (String method : List.of("TRACE", "OPTIONS", "GET", "HEAD", "DELETE", "PUT", "PATCH", "CONNECT", "post", "BREW")) {
            assertEquals(new Refusal(405, "POST", "Method Not Allowed: this stateless server takes POST only"),
                    MethodGate.refusal(MCP, method, MCP).orElseThrow(), method);
        }
        for (String method : List.of("TRACE", "OPTIONS", "POST", "DELETE", "get")) {
            assertEquals(new Refusal(405, "GET, HEAD", "Method Not Allowed: /healthz takes GET and HEAD only"),
                    MethodGate.refusal(MCP, method, "/healthz").orElseThrow(), method);
            assertEquals(405, MethodGate.refusal(MCP, method, "/readyz").orElseThrow().status(), method);
        }
        for (String path : List.of("/other", "/", "/mcp/", "/MCP", "/healthz/x")) {
            for (String method : List.of("TRACE", "GET", "POST")) {
                assertEquals(new Refusal(404, null, "Not Found: the MCP endpoint is /mcp"),
                        MethodGate.refusal(MCP, method, path).orElseThrow(), method + " " + path);
            }
        }
    }

    @Test
    void theEndpointIsWhereverHttpPathPutsIt() {
        assertTrue(MethodGate.refusal("/api/sandbox", "POST", "/api/sandbox").isEmpty());
        assertEquals(404, MethodGate.refusal("/api/sandbox", "POST", "/mcp").orElseThrow().status());
    }
}
