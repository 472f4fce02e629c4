package dev.pysandbox.bridge;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.execution.ToolOp;

/**
 * The tool calls of one execution: its budget (reserved before each call, so a denial counts too), its
 * record of calls, which the result reports whatever the outcome, and the calls in flight, abandoned when
 * the execution ends. The decisions about each call are {@link CodeMode}'s.
 */
final class ExecutionTools implements ToolCalls {
    private static final Logger audit = LoggerFactory.getLogger("dev.pysandbox.bridge.audit");
    /** Calls listed in a result; more are counted in tool_calls_omitted. */
    static final int MAX_RECORDS = AnswerBudget.TOOL_CALLS;
    /** list, search and describe per execution: they cost no budget but must not be a loop's free lunch. */
    static final int MAX_DISCOVERY = 50;

    private final CodeMode codeMode;
    private final ToolGrant grant;
    private final ToolPatterns narrowing;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger discovery = new AtomicInteger();
    private final List<Entry> entries = new ArrayList<>();
    private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
    private int omitted;
    private boolean finished;

    /** One call as recorded: done is set when it ends; a call still running at the end is reported failed. */
    private static final class Entry {
        final String tool;
        final long startNanos = System.nanoTime();
        volatile ToolCall done;

        Entry(String tool) {
            this.tool = tool;
        }

        long millis() {
            return (System.nanoTime() - startNanos) / 1_000_000;
        }
    }

    ExecutionTools(CodeMode codeMode, ToolGrant grant) {
        this.codeMode = codeMode;
        this.grant = grant;
        this.narrowing = ToolPatterns.narrowing(grant.narrowTo());
    }

    @Override
    public String handle(String op, String tool, String params, Duration remaining) {
        // Every string from the guest is bounded before it is echoed, logged or forwarded (SECURITY.md).
        Optional<ToolOp> known = ToolOp.named(op);
        if (known.isEmpty()) {
            return Envelope.error("", new ToolFailure(ToolFailure.PROTOCOL_ERROR, "unknown request: the tool bridge"
                    + " takes " + String.join(", ", Arrays.stream(ToolOp.values()).map(ToolOp::wireName).toList())));
        }
        if (tool != null && tool.length() > ToolOp.MAX_NAME_CHARS) {
            return Envelope.error("", new ToolFailure(ToolFailure.INVALID_PARAMS, "a tool name or search of "
                    + tool.length() + " characters; the limit is " + ToolOp.MAX_NAME_CHARS));
        }
        String name = tool == null ? "" : tool;
        try {
            synchronized (this) {
                if (finished) {
                    throw new ToolFailure(ToolFailure.NOT_CONFIGURED, "this call has ended");
                }
            }
            return switch (known.get()) {
                case CALL -> call(name, params, remaining, false);
                case CALL_RAW -> call(name, params, remaining, true);
                case LIST, SEARCH, DESCRIBE -> {
                    if (discovery.incrementAndGet() > MAX_DISCOVERY) {
                        throw new ToolFailure(ToolFailure.LIMIT_EXCEEDED, "at most " + MAX_DISCOVERY
                                + " list, search and describe requests per call");
                    }
                    yield Envelope.ok(switch (known.get()) {
                        case LIST -> codeMode.list(name, narrowing, remaining);
                        case SEARCH -> codeMode.search(name, params, narrowing);
                        default -> codeMode.describe(name, narrowing, remaining);
                    });
                }
            };
        } catch (ToolFailure failure) {
            return Envelope.error(name, failure);
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(ExecutionTools.class).warn("code mode: request {} {} failed", op, name, e);
            return Envelope.error(name, new ToolFailure(ToolFailure.PROTOCOL_ERROR, "the request failed inside the server"));
        }
    }

    private String call(String tool, String params, Duration remaining, boolean raw) throws ToolFailure {
        Entry entry = begin(tool);
        try {
            if (calls.incrementAndGet() > grant.maxCalls()) {
                throw new ToolFailure(ToolFailure.LIMIT_EXCEEDED, "this call may make at most " + grant.maxCalls()
                        + " tool calls (max_tool_calls, code-mode.max-tool-calls)");
            }
            String answer = Envelope.ok(codeMode.call(tool, params, narrowing, remaining, raw, this::track));
            if (answer.length() > codeMode.maxResultBytes()) {
                throw new ToolFailure(ToolFailure.RESULT_TOO_LARGE, "the answer is " + answer.length()
                        + " characters of JSON; the limit is " + codeMode.maxResultBytes() + " (code-mode.max-result-bytes)");
            }
            end(entry, null);
            return answer;
        } catch (ToolFailure failure) {
            end(entry, failure.kind());
            throw failure;
        }
    }

    private void track(CompletableFuture<?> call) {
        inFlight.add(call);
        call.whenComplete((value, error) -> inFlight.remove(call));
        synchronized (this) {
            if (finished) {
                call.cancel(true);
            }
        }
    }

    private synchronized Entry begin(String tool) {
        Entry entry = new Entry(tool);
        if (entries.size() < MAX_RECORDS) {
            entries.add(entry);
        } else {
            omitted++;
        }
        return entry;
    }

    private void end(Entry entry, String error) {
        entry.done = new ToolCall(entry.tool, error == null, entry.millis(), error);
        audit.info("tool call {} {} in {} ms", entry.tool, error == null ? "ok" : "failed: " + error, entry.millis());
    }

    @Override
    public List<ToolCall> finish(String inFlightError) {
        List<ToolCall> recorded = new ArrayList<>();
        synchronized (this) {
            finished = true;
            for (Entry entry : entries) {
                ToolCall done = entry.done;
                recorded.add(done != null ? done : new ToolCall(entry.tool, false, entry.millis(), inFlightError));
            }
        }
        inFlight.forEach(call -> call.cancel(true));
        return recorded;
    }

    @Override
    public synchronized int omitted() {
        return omitted;
    }

    @Override
    public String catalog() {
        return codeMode.catalog(narrowing);
    }
}
