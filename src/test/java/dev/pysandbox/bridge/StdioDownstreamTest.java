package dev.pysandbox.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.json.McpJsonDefaults;

/** The child's environment: the SDK's own transport hands a child all of ours, secrets included (measured). */
class StdioDownstreamTest {
    @Test
    void aChildGetsTheSafeListItsConfiguredEnvAndItsDepthOnly() {
        ServerEntry entry = new ServerEntry("s", ServerEntry.Kind.STDIO, "server", List.of(), Map.of("API_KEY", "k"),
                null, null, Map.of(), List.of(), List.of(), null, false);
        StdioDownstream stdio = new StdioDownstream(entry, McpJsonDefaults.getMapper(), 0, () -> { });
        Map<String, String> ours = Map.of("PATH", "/usr/bin", "HOME", "/root", "AWS_SECRET_ACCESS_KEY", "secret",
                "GITHUB_TOKEN", "token", "USER", "me");
        assertEquals(Map.of("PATH", "/usr/bin", "HOME", "/root", "USER", "me", "API_KEY", "k", "PYSANDBOX_MCP_DEPTH", "1"),
                stdio.environment(ours));
    }
}
