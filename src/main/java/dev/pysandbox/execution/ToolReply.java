package dev.pysandbox.execution;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The answer to one tool request of guest code (code mode), as the JSON text the prelude turns into a value or
 * a {@code ToolError}: {@code {"ok":true,"value":...}} or
 * {@code {"ok":false,"error":{"kind":...,"message":...,"tool":...,"result":...}}}, {@code tool} and
 * {@code result} only when known. The one place the envelope is written and read, so every message is
 * escaped the same way whoever refuses the request (the worker's bridge, the supervisor, a downstream tool).
 */
public sealed interface ToolReply {
    /** The tool's answer, shaped for the guest. */
    record Ok(Object value) implements ToolReply {
    }

    /**
     * A refusal or failure.
     *
     * @param tool   the name the request named; null when the reply does not say (a refusal before any name)
     * @param result the tool's own answer, for {@link ToolErrorKind#TOOL_ERROR}; else null
     */
    record Failed(ToolErrorKind kind, String message, String tool, Object result) implements ToolReply {
        public Failed {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(message, "message");
        }
    }

    static Ok ok(Object value) {
        return new Ok(value);
    }

    /** A failure that names no tool and carries no result. */
    static Failed failed(ToolErrorKind kind, String message) {
        return new Failed(kind, message, null, null);
    }

    /** The envelope's JSON text. */
    default String json() {
        Map<String, Object> envelope = new LinkedHashMap<>();
        switch (this) {
            case Ok ok -> {
                envelope.put("ok", true);
                envelope.put("value", ok.value());
            }
            case Failed failed -> {
                Map<String, Object> error = new LinkedHashMap<>();
                error.put("kind", failed.kind());
                error.put("message", failed.message());
                if (failed.tool() != null) {
                    error.put("tool", failed.tool());
                }
                if (failed.result() != null) {
                    error.put("result", failed.result());
                }
                envelope.put("ok", false);
                envelope.put("error", error);
            }
        }
        return Json.MAPPER.writeValueAsString(envelope);
    }

    /**
     * The reply an envelope's text holds.
     *
     * @throws IllegalArgumentException if the text is not an envelope
     */
    static ToolReply read(String json) {
        Object parsed;
        try {
            parsed = Json.MAPPER.readValue(json, Object.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        if (parsed instanceof Map<?, ?> envelope && envelope.get("ok") instanceof Boolean ok) {
            if (ok) {
                return new Ok(envelope.get("value"));
            }
            if (envelope.get("error") instanceof Map<?, ?> error && error.get("kind") instanceof String kind
                    && error.get("message") instanceof String message
                    && (error.get("tool") == null || error.get("tool") instanceof String)) {
                ToolErrorKind known = Arrays.stream(ToolErrorKind.values())
                        .filter(candidate -> candidate.wireName().equals(kind)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("no such error kind"));
                return new Failed(known, message, (String) error.get("tool"), error.get("result"));
            }
        }
        throw new IllegalArgumentException("not a tool reply envelope");
    }

    /** The mapper for envelopes (this package sits below {@code wire}, so not WireCodec's). */
    final class Json {
        private static final JsonMapper MAPPER = JsonMapper.builder().build();

        private Json() {
        }
    }
}
