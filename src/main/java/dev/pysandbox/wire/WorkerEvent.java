package dev.pysandbox.wire;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.ToolOp;

/**
 * A line a worker writes to its stdout (which carries nothing else): one of the records below, named on the
 * wire by its {@code type} property ({@code ready}, {@code started}, {@code tool-call}, {@code result}).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = WorkerEvent.Ready.class, name = "ready"),
        @JsonSubTypes.Type(value = WorkerEvent.Started.class, name = "started"),
        @JsonSubTypes.Type(value = WorkerEvent.ToolCall.class, name = "tool-call"),
        @JsonSubTypes.Type(value = WorkerEvent.Result.class, name = "result")})
public sealed interface WorkerEvent {

    /**
     * Python is warm: the worker takes calls.
     *
     * @param engine   the Truffle runtime Python runs on ("GraalVM CE" with the JIT, "Interpreted" without), so
     *                 the supervisor can tell when the JIT did not come up
     * @param aotCache whether the JVM mapped an AOT cache (it refuses a stale one with only a warning, and the
     *                 worker then starts at half speed)
     */
    record Ready(String engine, boolean aotCache) implements WorkerEvent {
    }

    /** Call {@code id}'s code begins: the supervisor arms its kill deadline from now. */
    record Started(long id) implements WorkerEvent {
    }

    /**
     * The code of call {@code id} asks for one of the operator's tools.
     *
     * @param seq    the request's number within its call, echoed by the answer
     * @param op     the operation; null when the worker named none of {@link ToolOp}'s (the supervisor refuses
     *               it, trusting no worker)
     * @param tool   the tool's qualified name (or the search words, or a server)
     * @param params the parameters as JSON text, unchecked: the supervisor checks them
     */
    record ToolCall(long id, long seq, ToolOp op, String tool, String params) implements WorkerEvent {
    }

    /**
     * Call {@code id} ended.
     *
     * @param report  what the worker measured of the run, and nothing else: the call's answer is the supervisor's
     * @param recycle the worker asks to be replaced: its context could not be stopped, or it hit a limit that
     *                may leave it unhealthy
     */
    record Result(long id, RunReport report, boolean recycle) implements WorkerEvent {
    }
}
