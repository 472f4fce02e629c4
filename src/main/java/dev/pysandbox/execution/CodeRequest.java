package dev.pysandbox.execution;

import java.time.Duration;

/**
 * What a worker is asked to do with a piece of code: run it, check it without running it, or tell what a
 * session's context holds.
 */
public sealed interface CodeRequest permits ExecutionRequest, ValidationRequest, InspectionRequest {
    /** The source text. */
    String code();

    /** Wall-clock limit for the code itself (queueing and context set-up not included). */
    Duration timeout();

    /** What the code may do with the operator's other MCP tools (code mode). */
    ToolGrant tools();
}
