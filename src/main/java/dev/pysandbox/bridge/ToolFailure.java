package dev.pysandbox.bridge;

import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolReply;

/**
 * Why a tool request failed, as guest code sees it: {@code ToolError(kind, tool, message)}. Messages are
 * written for the code's author; they never carry Java class names or a downstream server's stderr.
 */
final class ToolFailure extends Exception {
    private final ToolErrorKind kind;
    /** The tool's own answer, for {@link ToolErrorKind#TOOL_ERROR}; else null. */
    private final transient Object result;

    ToolFailure(ToolErrorKind kind, String message) {
        this(kind, message, null);
    }

    ToolFailure(ToolErrorKind kind, String message, Object result) {
        super(message, null, false, false);
        this.kind = kind;
        this.result = result;
    }

    ToolErrorKind kind() {
        return kind;
    }

    Object result() {
        return result;
    }

    /** The reply that tells the guest, for a request that named {@code tool}. */
    ToolReply.Failed reply(String tool) {
        return new ToolReply.Failed(kind, getMessage(), tool, result);
    }
}
