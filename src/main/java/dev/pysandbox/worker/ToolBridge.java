package dev.pysandbox.worker;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.execution.ToolReply;
import dev.pysandbox.wire.WorkerEvent;

/**
 * The one door from guest code to the operator's other MCP tools (code mode): the prelude closes over it and
 * calls it as {@code bridge(op, tool, params_json)}. It forwards the request to the supervisor over the
 * worker's protocol and waits for the answer; it decides nothing. The supervisor holds the MCP clients, the
 * allow-list and the budget, so guest code that reaches this proxy directly (it can, through closure cells)
 * gains nothing the prelude's checks would have kept from it.
 *
 * <p>A {@link ProxyExecutable} needs no host access in the context: the guest sees an opaque callable. It
 * never throws: a host exception would show the guest Java class names. One bridge serves every context of
 * the worker, for the one call running now; outside a call (session code that kept the proxy) it refuses.
 */
final class ToolBridge implements ProxyExecutable {
    private static final long NO_CALL = -1;
    /**
     * The longest parameters forwarded, in characters: the ceiling of code-mode.max-param-bytes. The supervisor
     * applies the configured limit; this keeps the request's line within WireCodec.MAX_LINE_BYTES even when every
     * character is one JSON escapes to six bytes.
     */
    static final int MAX_PARAMS_CHARS = 2 * 1024 * 1024;
    private static final String NO_CALL_REPLY = refusal(ToolErrorKind.NOT_CONFIGURED,
            "tools can be called only while the call that uses them runs");

    private final Consumer<WorkerEvent> events;
    private final AtomicLong seq = new AtomicLong();
    private final Map<Long, CompletableFuture<String>> waiting = new ConcurrentHashMap<>();
    private volatile long callId = NO_CALL;

    /** @param events where tool requests go (the worker's protocol stream) */
    ToolBridge(Consumer<WorkerEvent> events) {
        this.events = events;
    }

    /** The call whose code may use tools from now on. */
    void begin(long id) {
        waiting.clear();
        callId = id;
    }

    /** Ends the current call's use of tools; answers that arrive later are dropped. */
    void end() {
        callId = NO_CALL;
        waiting.values().forEach(reply -> reply.complete(NO_CALL_REPLY));
        waiting.clear();
    }

    /** An answer from the supervisor. One for a call that already ended, or a request never made, is dropped. */
    void deliver(long id, long requestSeq, String reply) {
        if (id != callId) {
            return;
        }
        CompletableFuture<String> pending = waiting.get(requestSeq);
        if (pending != null) {
            pending.complete(reply);
        }
    }

    @Override
    public Object execute(Value... arguments) {
        long id = callId;
        if (id == NO_CALL) {
            return NO_CALL_REPLY;
        }
        // Only strings are read, and never through toString(): a guest object's __str__ must not run here.
        if (arguments.length != 3 || !arguments[0].isString() || !arguments[1].isString()
                || !(arguments[2].isString() || arguments[2].isNull())) {
            return refusal(ToolErrorKind.INVALID_PARAMS, "the tool bridge takes (op, tool, params_json) as strings");
        }
        // Lengths are checked before anything is echoed or forwarded; an unknown operation is not echoed at all.
        Optional<ToolOp> op = ToolOp.named(arguments[0].asString());
        if (op.isEmpty()) {
            return refusal(ToolErrorKind.PROTOCOL_ERROR, "unknown request: the tool bridge takes call, call_raw, list, search"
                    + " or describe");
        }
        if (arguments[1].asString().length() > ToolOp.MAX_NAME_CHARS
                || !arguments[2].isNull() && arguments[2].asString().length() > MAX_PARAMS_CHARS) {
            return refusal(ToolErrorKind.INVALID_PARAMS, "the tool name or the parameters are too large");
        }
        long number = seq.incrementAndGet();
        CompletableFuture<String> reply = new CompletableFuture<>();
        waiting.put(number, reply);
        try {
            events.accept(new WorkerEvent.ToolCall(id, number, op.get(), arguments[1].asString(),
                    arguments[2].isNull() ? null : arguments[2].asString()));
            return reply.get();
        } catch (InterruptedException e) {
            // The call is being stopped (its timeout, a cancel): Context.interrupt() got here. Keep the flag so
            // the interrupt reaches the guest, which cannot catch it.
            Thread.currentThread().interrupt();
            return refusal(ToolErrorKind.TIMEOUT, "the call was stopped while it waited for the tool");
        } catch (ExecutionException | RuntimeException e) {
            return refusal(ToolErrorKind.PROTOCOL_ERROR, "the tool request could not be sent");
        } finally {
            waiting.remove(number);
        }
    }

    private static String refusal(ToolErrorKind kind, String message) {
        return ToolReply.failed(kind, message).json();
    }
}
