package dev.pysandbox.mcp;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Typed access to a tool call's arguments. The SDK checks them against the input schema first; these checks
 * are the second line, so that a client that skips the schema still gets a clear message naming the field.
 */
final class CallArguments {
    /** An argument that is missing or has the wrong type or value; the message names the field. */
    static final class InvalidArgument extends Exception {
        InvalidArgument(String message) {
            super(message);
        }
    }

    private final Map<String, Object> values;

    CallArguments(Map<String, Object> values) {
        this.values = values == null ? Map.of() : values;
    }

    /** An argument as the client sent it, for arguments with a shape of their own; null if absent. */
    Object raw(String name) {
        return values.get(name);
    }

    String requiredString(String name) throws InvalidArgument {
        String value = optionalString(name);
        if (value == null) {
            throw new InvalidArgument("Missing required argument '" + name + "'.");
        }
        return value;
    }

    String optionalString(String name) throws InvalidArgument {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            throw new InvalidArgument("Argument '" + name + "' must be a string.");
        }
        return text;
    }

    /** A JSON object argument as JSON text of at most {@code maxBytes}; null if absent. */
    String optionalObjectJson(String name, int maxBytes) throws InvalidArgument {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map<?, ?>)) {
            throw new InvalidArgument("Argument '" + name + "' must be a JSON object.");
        }
        String json = AnswerJson.text(value);
        int bytes = json.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw new InvalidArgument("Argument '" + name + "' is " + bytes + " bytes of JSON; the limit is " + maxBytes + ".");
        }
        return json;
    }

    /** An array of strings; null if absent. */
    List<String> optionalStrings(String name) throws InvalidArgument {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof List<?> list) || !list.stream().allMatch(item -> item instanceof String)) {
            throw new InvalidArgument("Argument '" + name + "' must be an array of strings.");
        }
        return list.stream().map(String.class::cast).toList();
    }

    /** A whole number in [min, max], or {@code fallback} if absent. */
    int optionalInt(String name, int min, int max, int fallback) throws InvalidArgument {
        Object value = values.get(name);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw new InvalidArgument("Argument '" + name + "' must be a whole number.");
        }
        double n = number.doubleValue();
        if (n < min || n > max) {
            throw new InvalidArgument("Argument '" + name + "' must be between " + min + " and " + max + ".");
        }
        return (int) n;
    }
}
