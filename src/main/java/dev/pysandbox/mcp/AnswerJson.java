package dev.pysandbox.mcp;

import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON this server writes for its clients: the tools' answers ({@link dev.pysandbox.execution.ExecutionResult},
 * {@code inspect_session}'s and {@code validate_code}'s reports), and the arguments it keeps as JSON text. Their
 * shape is what the answer types declare (field names and inclusion rules), written with Jackson's defaults.
 *
 * <p>Not the worker protocol's codec ({@code wire.WireCodec}), which reads what untrusted workers write and is set
 * to forgive what they leave out; the two change for different reasons.
 */
public final class AnswerJson {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private AnswerJson() {
    }

    /** The JSON text of an answer; Jackson escapes control characters, so it holds no raw newline. */
    public static String text(Object answer) {
        return MAPPER.writeValueAsString(answer);
    }

    /** The JSON object form of an answer, as MCP structured content. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object answer) {
        return MAPPER.convertValue(answer, Map.class);
    }

    /** A JSON object's text read back as a map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> readObject(String json) {
        return MAPPER.readValue(json, Map.class);
    }
}
