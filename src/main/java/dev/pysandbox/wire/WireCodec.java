package dev.pysandbox.wire;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.InvalidTypeIdException;
import tools.jackson.databind.json.JsonMapper;

/** JSON lines for the worker protocol: one message per line, nothing else on the stream. */
public final class WireCodec {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            // A field the reading side does not know is dropped, never kept: an older line's, or one a hostile worker
            // made up (a worker's report has no field for what only the supervisor knows: RunReport).
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // Fields a message leaves out (a count of 0 that the JSON omits) read as their zero value.
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    /**
     * The longest line either side of the worker protocol writes or reads. The largest honest line is a result
     * within the answer budget, which the settings keep under AnswerBudget.CLIENT_MESSAGE_BYTES (10 MiB); a tool
     * request's parameters are held under it by the worker's tool bridge. The supervisor reads no more of a line.
     */
    public static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private WireCodec() {
    }

    /** Jackson escapes control characters, so the encoded line never contains a raw newline. */
    public static String encode(Object message) {
        return MAPPER.writeValueAsString(message);
    }

    public static <T> T decode(String line, Class<T> type) {
        return MAPPER.readValue(line, type);
    }

    /**
     * A line of the worker protocol as a value of {@code family} ({@link WorkerCommand} or {@link WorkerEvent}),
     * or what else it is; never throws for what the line holds.
     */
    public static <T> Decoded<T> read(String line, Class<T> family) {
        int start = 0;
        while (start < line.length() && Character.isWhitespace(line.charAt(start))) {
            start++;
        }
        if (start == line.length() || line.charAt(start) != '{') {
            // Jackson would take an array's first element for a type name.
            return new Decoded.NotProtocol<>("not a JSON object");
        }
        try {
            return new Decoded.Message<>(MAPPER.readValue(line, family));
        } catch (InvalidTypeIdException e) {
            String type = e.getTypeId();
            if (type == null) {
                return new Decoded.NotProtocol<>("no type");
            }
            return new Decoded.UnknownType<>(type.length() > Decoded.MAX_TYPE_CHARS
                    ? type.substring(0, Decoded.MAX_TYPE_CHARS) : type);
        } catch (RuntimeException e) {
            return new Decoded.NotProtocol<>(e instanceof JacksonException jackson ? jackson.getOriginalMessage()
                    : e.toString());
        }
    }

    /** Parses a JSON document the guest produced (the {@code result} value). */
    public static Object parseValue(String json) {
        return MAPPER.readValue(json, Object.class);
    }
}
