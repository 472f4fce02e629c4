package dev.pysandbox.bridge;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.execution.ToolReply;

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
    public String handle(ToolOp op, String tool, String params, Duration remaining) {
        // Every string from the guest is bounded before it is echoed, logged or forwarded (SECURITY.md).
        if (op == null) {
            return new ToolFailure(ToolErrorKind.PROTOCOL_ERROR, "unknown request: the tool bridge"
                    + " takes " + String.join(", ", Arrays.stream(ToolOp.values()).map(ToolOp::wireName).toList()))
                    .reply("").json();
        }
        if (tool != null && tool.length() > ToolOp.MAX_NAME_CHARS) {
            return new ToolFailure(ToolErrorKind.INVALID_PARAMS, "a tool name or search of "
                    + tool.length() + " characters; the limit is " + ToolOp.MAX_NAME_CHARS).reply("").json();
        }
        String name = tool == null ? "" : tool;
        try {
            synchronized (this) {
                if (finished) {
                    throw new ToolFailure(ToolErrorKind.NOT_CONFIGURED, "this call has ended");
                }
            }
            return switch (op) {
                case CALL -> call(name, params, remaining, false);
                case CALL_RAW -> call(name, params, remaining, true);
                case LIST, SEARCH, DESCRIBE -> {
                    if (discovery.incrementAndGet() > MAX_DISCOVERY) {
                        throw new ToolFailure(ToolErrorKind.LIMIT_EXCEEDED, "at most " + MAX_DISCOVERY
                                + " list, search and describe requests per call");
                    }
                    yield ToolReply.ok(switch (op) {
                        case LIST -> codeMode.list(name, narrowing, remaining);
                        case SEARCH -> codeMode.search(name, params, narrowing);
                        default -> codeMode.describe(name, narrowing, remaining);
                    }).json();
                }
            };
        } catch (ToolFailure failure) {
            return failure.reply(name).json();
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(ExecutionTools.class).warn("code mode: request {} {} failed", op.wireName(), name, e);
            return new ToolFailure(ToolErrorKind.PROTOCOL_ERROR, "the request failed inside the server").reply(name).json();
        }
    }

    private String call(String tool, String params, Duration remaining, boolean raw) throws ToolFailure {
        Entry entry = begin(tool);
        try {
            if (calls.incrementAndGet() > grant.maxCalls()) {
                throw new ToolFailure(ToolErrorKind.LIMIT_EXCEEDED, "this call may make at most " + grant.maxCalls()
                        + " tool calls (max_tool_calls, code-mode.max-tool-calls)");
            }
            String answer = ToolReply.ok(codeMode.call(tool, params, narrowing, remaining, raw, this::track)).json();
            if (answer.length() > codeMode.maxResultBytes()) {
                throw new ToolFailure(ToolErrorKind.RESULT_TOO_LARGE, "the answer is " + answer.length()
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

    /** Records a call about to be made; refused once the execution's use of tools has ended. */
    private synchronized Entry begin(String tool) throws ToolFailure {
        // Checked again here, under the lock finish holds, so that no call starts after the execution ended.
        if (finished) {
            throw new ToolFailure(ToolErrorKind.NOT_CONFIGURED, "this call has ended");
        }
        Entry entry = new Entry(tool);
        if (entries.size() < MAX_RECORDS) {
            entries.add(entry);
        } else {
            omitted++;
        }
        return entry;
    }

    private void end(Entry entry, ToolErrorKind error) {
        entry.done = new ToolCall(entry.tool, error == null, entry.millis(), error);
        audit.info("tool call {} {} in {} ms", entry.tool, error == null ? "ok" : "failed: " + error.wireName(), entry.millis());
    }

    @Override
    public List<ToolCall> finish(ToolErrorKind inFlightError) {
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
