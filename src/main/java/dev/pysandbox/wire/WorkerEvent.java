package dev.pysandbox.wire;

import dev.pysandbox.execution.ExecutionResult;

/**
 * A line a worker writes to its stdout (which carries nothing else).
 *
 * @param type    {@link #READY} once Python is warm, {@link #STARTED} when a call's code begins (the
 *                supervisor arms its kill deadline from then), {@link #RESULT} when a call ends
 * @param recycle the worker asks to be replaced: its context could not be stopped, or it hit a limit
 *                that may leave it unhealthy
 * @param engine  with {@link #READY}: the Truffle runtime Python runs on ("GraalVM CE" with the JIT,
 *                "Interpreted" without), so the supervisor can tell when the JIT did not come up
 * @param aotCache with {@link #READY}: whether the JVM mapped an AOT cache (it refuses a stale one with only
 *                a warning, and the worker then starts at half speed)
 */
public record WorkerEvent(String type, long id, ExecutionResult result, boolean recycle, String engine,
        boolean aotCache) {
    public static final String READY = "ready";
    public static final String STARTED = "started";
    public static final String RESULT = "result";

    public static WorkerEvent ready(String engine, boolean aotCache) {
        return new WorkerEvent(READY, 0, null, false, engine, aotCache);
    }

    public static WorkerEvent started(long id) {
        return new WorkerEvent(STARTED, id, null, false, null, false);
    }

    public static WorkerEvent result(long id, ExecutionResult result, boolean recycle) {
        return new WorkerEvent(RESULT, id, result, recycle, null, false);
    }
}
