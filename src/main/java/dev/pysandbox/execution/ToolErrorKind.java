package dev.pysandbox.execution;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Why a tool request failed: the {@code kind} of a {@link ToolReply} error, which guest code sees as
 * {@code ToolError.kind}, and the {@code error} of a recorded {@link ToolCall}. The wire names are the
 * prelude's too.
 */
public enum ToolErrorKind {
    /** Code mode is off, or not for this call, or the call has ended. */
    NOT_CONFIGURED("not_configured"),
    /** The tool is not configured, not allowed, or one that runs code. */
    NOT_ALLOWED("not_allowed"),
    /** The request or its parameters are not what the tool takes. */
    INVALID_PARAMS("invalid_params"),
    /** The call's budget of tool calls or discovery requests is spent. */
    LIMIT_EXCEEDED("limit_exceeded"),
    /** No answer within the tool's or the execution's time. */
    TIMEOUT("timeout"),
    /** The downstream server could not be started or reached. */
    SERVER_UNAVAILABLE("server_unavailable"),
    /** The tool answered with an error; its answer is the error's {@code result}. */
    TOOL_ERROR("tool_error"),
    /** The request or the downstream server's answer broke the protocol. */
    PROTOCOL_ERROR("protocol_error"),
    /** The answer is larger than code-mode.max-result-bytes. */
    RESULT_TOO_LARGE("result_too_large"),
    /** Only in the record of calls: the execution ended (not at its timeout) while the call was in flight. */
    ABANDONED("abandoned");

    private final String wireName;

    ToolErrorKind(String wireName) {
        this.wireName = wireName;
    }

    /** The name in a reply's JSON and in the result's {@code tool_calls}. */
    @JsonValue
    public String wireName() {
        return wireName;
    }
}
