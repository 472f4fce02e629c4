package dev.pysandbox.execution;

import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The languages the sandbox runs. Each runs in the same supervised workers, under the same policy and limits, on
 * its own Truffle language: Python on GraalPy, JavaScript (ECMAScript 2024) on GraalJS.
 */
public enum Language {
    PYTHON("python", "Python"),
    JAVASCRIPT("javascript", "JavaScript");

    private final String wireName;
    private final String displayName;

    Language(String wireName, String displayName) {
        this.wireName = wireName;
        this.displayName = displayName;
    }

    /**
     * The name {@code execute_code}'s {@code language} argument, the worker protocol and the metrics use:
     * {@code python}, {@code javascript}.
     */
    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** The name people read: Python, JavaScript. */
    public String displayName() {
        return displayName;
    }

    /**
     * The language a client named, in any case and with spaces around: {@code python}, {@code javascript} or
     * {@code js}; empty for any other name.
     */
    public static Optional<Language> named(String name) {
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "python" -> Optional.of(PYTHON);
            case "javascript", "js" -> Optional.of(JAVASCRIPT);
            default -> Optional.empty();
        };
    }

    /** The language a worker command names; null for any other name, which the command's constructor reads as Python. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Language fromWire(String name) {
        return name == null ? null : named(name).orElse(null);
    }
}
