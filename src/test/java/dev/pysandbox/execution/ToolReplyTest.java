package dev.pysandbox.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

/** The one envelope a tool request is answered with, as the prelude reads it. */
class ToolReplyTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void anAnswerIsOkAndItsValue() {
        assertEquals("{\"ok\":true,\"value\":{\"list\":[1,\"two\"]}}",
                ToolReply.ok(Map.of("list", List.of(1, "two"))).json());
        assertEquals("{\"ok\":true,\"value\":null}", ToolReply.ok(null).json());
    }

    @Test
    void aRefusalIsItsKindAndMessageOnly() {
        assertEquals("{\"ok\":false,\"error\":{\"kind\":\"not_configured\",\"message\":\"code mode is off\"}}",
                ToolReply.failed(ToolErrorKind.NOT_CONFIGURED, "code mode is off").json());
    }

    @Test
    void aFailureNamesItsToolAndCarriesTheToolsOwnAnswer() {
        String json = new ToolReply.Failed(ToolErrorKind.TOOL_ERROR, "it failed", "srv.echo", Map.of("isError", true)).json();
        assertEquals("{\"ok\":false,\"error\":{\"kind\":\"tool_error\",\"message\":\"it failed\",\"tool\":\"srv.echo\","
                + "\"result\":{\"isError\":true}}}", json);
    }

    @Test
    void everyReplyReadsBackEqual() {
        List<ToolReply> replies = List.of(
                ToolReply.ok("text"), ToolReply.ok(List.of(1, 2)), ToolReply.ok(null),
                ToolReply.failed(ToolErrorKind.TIMEOUT, "no answer in time"),
                new ToolReply.Failed(ToolErrorKind.NOT_ALLOWED, "not allowed", "", null),
                new ToolReply.Failed(ToolErrorKind.TOOL_ERROR, "failed", "a.b", Map.of("content", List.of())));
        for (ToolReply reply : replies) {
            assertEquals(reply, ToolReply.read(reply.json()));
        }
    }

    @Test
    void attackQuotesBackslashesAndControlCharactersInAMessageStayInsideIt() {
        // The worker's bridge once wrote its envelopes by concatenation, which escaped nothing.
        String message = "a \"quoted\" \\ back\\slash\n\r\t\u0000\u001f\u2028 \"},\"ok\":true,\"x\":{\"";
        String json = ToolReply.failed(ToolErrorKind.PROTOCOL_ERROR, message).json();
        assertTrue(json.chars().noneMatch(c -> c < 0x20), json);
        @SuppressWarnings("unchecked")
        Map<String, Object> parsed = JSON.readValue(json, Map.class);
        assertEquals(false, parsed.get("ok"));
        assertEquals(Map.of("kind", "protocol_error", "message", message), parsed.get("error"));
        assertEquals(ToolReply.failed(ToolErrorKind.PROTOCOL_ERROR, message), ToolReply.read(json));
    }

    @Test
    void everyKindHasTheWireNameThePreludeReads() {
        assertEquals(List.of("not_configured", "not_allowed", "invalid_params", "limit_exceeded", "timeout",
                        "server_unavailable", "tool_error", "protocol_error", "result_too_large", "abandoned"),
                Arrays.stream(ToolErrorKind.values()).map(ToolErrorKind::wireName).toList());
        for (ToolErrorKind kind : ToolErrorKind.values()) {
            assertTrue(ToolReply.failed(kind, "m").json().contains("\"kind\":\"" + kind.wireName() + "\""));
            assertEquals("\"" + kind.wireName() + "\"", JSON.writeValueAsString(kind));
            assertEquals(kind, JSON.readValue("\"" + kind.wireName() + "\"", ToolErrorKind.class));
        }
    }

    @Test
    void aRecordedCallsErrorIsTheKindsWireName() {
        assertEquals("{\"tool\":\"srv.echo\",\"ok\":false,\"duration_ms\":4,\"error\":\"limit_exceeded\"}",
                JSON.writeValueAsString(new ToolCall("srv.echo", false, 4, ToolErrorKind.LIMIT_EXCEEDED)));
        assertEquals("{\"tool\":\"srv.echo\",\"ok\":true,\"duration_ms\":4}",
                JSON.writeValueAsString(new ToolCall("srv.echo", true, 4, null)));
    }

    @Test
    void textThatIsNoEnvelopeIsRefused() {
        for (String text : List.of("", "[]", "{\"ok\":\"yes\"}", "{\"ok\":false}",
                "{\"ok\":false,\"error\":{\"kind\":\"melted\",\"message\":\"m\"}}")) {
            assertThrows(IllegalArgumentException.class, () -> ToolReply.read(text), text);
        }
    }
}
