package dev.pysandbox.wire;

import dev.pysandbox.execution.ExecutionResult;

/**
 * A line a worker writes to its stdout (which carries nothing else).
 *
 * @param type    {@link #READY} once Python is warm, {@link #STARTED} when a call's code begins (the
 *                supervisor arms its kill deadline from then), {@link #TOOL_CALL} when the code asks for one
 *                of the operator's tools, {@link #RESULT} when a call ends
 * @param recycle the worker asks to be replaced: its context could not be stopped, or it hit a limit
 *                that may leave it unhealthy
 * @param engine  with {@link #READY}: the Truffle runtime Python runs on ("GraalVM CE" with the JIT,
 *                "Interpreted" without), so the supervisor can tell when the JIT did not come up
 * @param aotCache with {@link #READY}: whether the JVM mapped an AOT cache (it refuses a stale one with only
 *                a warning, and the worker then starts at half speed)
 * @param seq     with {@link #TOOL_CALL}: the request's number within its call, echoed by the answer
 * @param op      with {@link #TOOL_CALL}: call, list, search or describe
 * @param tool    with {@link #TOOL_CALL}: the tool's qualified name (or the search words, or a server)
 * @param params  with {@link #TOOL_CALL}: the parameters as JSON text, unchecked: the supervisor checks them
 */
public record WorkerEvent(String type, long id, ExecutionResult result, boolean recycle, String engine,
        boolean aotCache, long seq, String op, String tool, String params) {
    public static final String READY = "ready";
    public static final String STARTED = "started";
    public static final String TOOL_CALL = "tool-call";
    public static final String RESULT = "result";

    public static WorkerEvent ready(String engine, boolean aotCache) {
        return new WorkerEvent(READY, 0, null, false, engine, aotCache, 0, null, null, null);
    }

    public static WorkerEvent started(long id) {
        return new WorkerEvent(STARTED, id, null, false, null, false, 0, null, null, null);
    }

    public static WorkerEvent toolCall(long id, long seq, String op, String tool, String params) {
        return new WorkerEvent(TOOL_CALL, id, null, false, null, false, seq, op, tool, params);
    }

    public static WorkerEvent result(long id, ExecutionResult result, boolean recycle) {
        return new WorkerEvent(RESULT, id, result, recycle, null, false, 0, null, null, null);
    }
}
