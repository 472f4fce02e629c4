package dev.pysandbox.execution;

import java.util.List;

/**
 * What one execution may do with the operator's other MCP tools: the caller's narrowing of the allow-list and
 * its call budget, both already checked against the operator's limits at the edge. The grant can only take
 * away: the tools themselves are whatever the operator allowed.
 *
 * @param enabled  false for a call that must not use code mode (a nested call from another code mode)
 * @param narrowTo the call's {@code allowed_tools} globs over {@code server.tool}; null for no narrowing
 * @param maxCalls the most tool calls this execution may make
 */
public record ToolGrant(boolean enabled, List<String> narrowTo, int maxCalls) {
    /** No tools: for calls that never reach code mode (run_python, the command line). */
    public static final ToolGrant NONE = new ToolGrant(false, null, 0);

    public ToolGrant {
        narrowTo = narrowTo == null ? null : List.copyOf(narrowTo);
    }
}
