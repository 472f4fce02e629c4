package dev.pysandbox.execution;

import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What guest code may ask of the operator's tools through the tool bridge (code mode). The guest names the
 * operation as a string; anything else is refused without being echoed, since a refusal that repeated a
 * two-megabyte name would be a two-megabyte answer.
 */
public enum ToolOp {
    CALL("call"),
    CALL_RAW("call_raw"),
    LIST("list"),
    SEARCH("search"),
    DESCRIBE("describe");

    /**
     * The longest tool name, server name or search words the bridge forwards. The supervisor records at most
     * AnswerBudget.TOOL_NAME_CHARS of a name; this only keeps a request from carrying a name as large as a heap.
     */
    public static final int MAX_NAME_CHARS = 1_000;

    private final String wireName;

    ToolOp(String wireName) {
        this.wireName = wireName;
    }

    /** The name on the worker protocol and in the prelude. */
    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** The operation a guest named; empty for anything else, however long. */
    public static Optional<ToolOp> named(String name) {
        if (name == null || name.length() > 16) {
            return Optional.empty();
        }
        for (ToolOp op : values()) {
            if (op.wireName.equals(name)) {
                return Optional.of(op);
            }
        }
        return Optional.empty();
    }

    /**
     * The operation a worker's tool request names, as the worker protocol reads it; null for anything else,
     * so that the request is still answered (refused), not dropped with its line.
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ToolOp fromWire(String name) {
        return named(name).orElse(null);
    }
}
