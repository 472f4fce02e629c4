package dev.pysandbox.bridge;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON text a tool request is answered with, which the prelude turns into a value or a
 * {@code ToolError}: {@code {"ok":true,"value":...}} or {@code {"ok":false,"error":{kind, message, tool, result}}}.
 */
final class Envelope {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Envelope() {
    }

    static String ok(Object value) {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("ok", true);
        envelope.put("value", value);
        return JSON.writeValueAsString(envelope);
    }

    static String error(String tool, ToolFailure failure) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("kind", failure.kind());
        error.put("message", failure.getMessage());
        error.put("tool", tool);
        if (failure.result() != null) {
            error.put("result", failure.result());
        }
        return JSON.writeValueAsString(Map.of("ok", false, "error", error));
    }
}
