package dev.pysandbox.execution;

import java.util.List;

/**
 * What one execution may do with the operator's other MCP tools: the caller's narrowing of the allow-list and
 * its call budget, both already checked against the operator's limits at the edge. The grant can only take
 * away: the tools themselves are whatever the operator allowed.
 *
 * @param access   whether the call may use code mode at all, and if not, why
 * @param narrowTo the call's {@code allowed_tools} globs over {@code server.tool}; null for no narrowing
 * @param maxCalls the most tool calls this execution may make
 */
public record ToolGrant(Access access, List<String> narrowTo, int maxCalls) {
    /** No tools: for calls that never reach code mode (run_python, the command line). */
    public static final ToolGrant NONE = new ToolGrant(Access.NOT_FOR_THIS_CALL, null, 0);

    /** Whether a call may use code mode, or why not. */
    public enum Access {
        /** It may, within the grant. */
        GRANTED,
        /** A nested call from another code mode, or a tool other than execute_code. */
        NOT_FOR_THIS_CALL,
        /** The caller's OAuth token does not carry the scope for the operator's tools. */
        SCOPE_MISSING
    }

    public ToolGrant {
        narrowTo = narrowTo == null ? null : List.copyOf(narrowTo);
    }

    /** @param enabled {@link Access#GRANTED} if true, else {@link Access#NOT_FOR_THIS_CALL} */
    public ToolGrant(boolean enabled, List<String> narrowTo, int maxCalls) {
        this(enabled ? Access.GRANTED : Access.NOT_FOR_THIS_CALL, narrowTo, maxCalls);
    }
}
