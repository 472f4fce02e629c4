package dev.pysandbox.execution;

import java.time.Duration;
import java.util.List;

/**
 * Where the supervisor takes the tool calls guest code makes (code mode). Defined here, below both, so the
 * supervisor can forward calls without knowing the MCP clients that answer them (package {@code bridge}).
 */
public interface ToolBroker {
    /** Code mode off: every call is answered {@code not_configured}. */
    ToolBroker OFF = grant -> ToolCalls.refusing(ToolErrorKind.NOT_CONFIGURED,
            "code mode is off: the server was started without code-mode.servers");

    /** The tool calls of one execution, under its grant. */
    ToolCalls open(ToolGrant grant);

    /** The tool calls of one execution: its budget, its record, the calls in flight. */
    interface ToolCalls {
        /**
         * Answers one request of the guest's code. Never throws: failures are error envelopes, because an
         * exception would carry host class names into the guest.
         *
         * @param op        the operation; null for one the worker named that is none of these (refused)
         * @param tool      the qualified tool name, or the search words, or a server name for list
         * @param params    the parameters as JSON text (call), else null
         * @param remaining the execution's time left; a tool call never outlives it
         * @return the JSON envelope, {@code {"ok":true,"value":...}} or {@code {"ok":false,"error":{...}}}
         */
        String handle(ToolOp op, String tool, String params, Duration remaining);

        /**
         * Ends the execution's use of tools: calls still in flight are abandoned (their answers dropped) and
         * recorded as failed with {@code inFlightError}.
         *
         * @return the calls made, in order (at most a capped number)
         */
        List<ToolCall> finish(ToolErrorKind inFlightError);

        /** How many calls were made beyond those {@link #finish} lists. */
        int omitted();

        /**
         * The tool names this execution may call and all the names known, as JSON text
         * {@code {"allowed":[...],"known":[...]}}: what {@code validate_code} checks literal names against.
         */
        String catalog();

        /** Answers every request with the same error; records nothing. */
        static ToolCalls refusing(ToolErrorKind kind, String message) {
            String envelope = ToolReply.failed(kind, message).json();
            return new ToolCalls() {
                @Override
                public String handle(ToolOp op, String tool, String params, Duration remaining) {
                    return envelope;
                }

                @Override
                public List<ToolCall> finish(ToolErrorKind inFlightError) {
                    return List.of();
                }

                @Override
                public int omitted() {
                    return 0;
                }

                @Override
                public String catalog() {
                    return "{}";
                }
            };
        }
    }
}
