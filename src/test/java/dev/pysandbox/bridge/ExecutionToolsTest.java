package dev.pysandbox.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.pysandbox.config.CodeModeSettings;
import dev.pysandbox.execution.ToolBroker.ToolCalls;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.execution.ToolGrant;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.wire.WireCodec;

/**
 * The supervisor's rules for one execution's tool requests, without any downstream process: the rules that
 * refuse a call do so before a server is needed. (CodeModeIT covers calls that reach a server.)
 */
class ExecutionToolsTest {
    private static final Duration TIME = Duration.ofSeconds(5);
    private static final CodeModeSettings SETTINGS = new CodeModeSettings(Path.of("servers.json"), List.of(), List.of(),
            10, 100, Duration.ofSeconds(30), 1024, 4096, 4096, 4, Duration.ofSeconds(5), true);
    /** A server that is configured (all its tools allowed but pid) and never started: no call gets that far. */
    private static final ServerEntry STUB = new ServerEntry("stub", ServerEntry.Kind.STDIO, "/bin/false", List.of(), Map.of(),
            null, null, Map.of(), List.of("*"), List.of("pid"), null, false);

    private final CodeMode codeMode = CodeMode.of(SETTINGS, List.of(STUB), 0, "python-sandbox-mcp", "test");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> error(String envelope) {
        Map<String, Object> reply = (Map<String, Object>) WireCodec.parseValue(envelope);
        assertEquals(false, reply.get("ok"), envelope);
        return (Map<String, Object>) reply.get("error");
    }

    @Test
    void theCallAfterTheBudgetIsLimitExceededAndDenialsCount() {
        ToolCalls calls = codeMode.open(new ToolGrant(true, null, 2));
        assertEquals("not_allowed", error(calls.handle(ToolOp.CALL, "stub.pid", "{}", TIME)).get("kind"));
        assertEquals("not_allowed", error(calls.handle(ToolOp.CALL, "other.echo", "{}", TIME)).get("kind"));
        assertEquals("limit_exceeded", error(calls.handle(ToolOp.CALL, "stub.echo", "{}", TIME)).get("kind"));
        List<ToolCall> recorded = calls.finish(ToolErrorKind.ABANDONED);
        assertEquals(List.of("not_allowed", "not_allowed", "limit_exceeded"), recorded.stream().map(call -> call.error().wireName()).toList());
    }

    @Test
    void attackAWorkerSendingAHugeOperationOrNameIsAnsweredWithoutAnEcho() {
        // The worker's bridge refuses these first; the supervisor trusts no worker and refuses them again.
        ToolCalls calls = codeMode.open(new ToolGrant(true, null, 10));
        String hugeOp = calls.handle(ToolOp.fromWire("x".repeat(2_000_000)), "stub.echo", "{}", TIME);
        assertEquals("protocol_error", error(hugeOp).get("kind"));
        String hugeName = calls.handle(ToolOp.CALL, "y".repeat(2_000_000), "{}", TIME);
        assertEquals("invalid_params", error(hugeName).get("kind"));
        assertTrue(hugeOp.length() < 500 && hugeName.length() < 500, hugeOp + "\n" + hugeName);
        assertEquals(List.of(), calls.finish(ToolErrorKind.ABANDONED), "refused before anything was recorded");
    }

    @Test
    void ourOwnToolNamesAreRefusedOnAnyServerWhateverTheGlobsSay() {
        ToolCalls calls = codeMode.open(new ToolGrant(true, List.of("*"), 10));
        for (String tool : List.of("stub.execute_code", "stub.run_python", "stub.validate_code")) {
            Map<String, Object> error = error(calls.handle(ToolOp.CALL, tool, "{}", TIME));
            assertEquals("not_allowed", error.get("kind"));
            assertTrue(String.valueOf(error.get("message")).contains("recursion"), error.toString());
        }
    }

    @Test
    void allowedToolsNarrowsButADeniedToolStaysDenied() {
        ToolCalls calls = codeMode.open(new ToolGrant(true, List.of("stub.pid", "stub.add"), 10));
        assertTrue(String.valueOf(error(calls.handle(ToolOp.CALL, "stub.echo", "{}", TIME)).get("message")).contains("allowed_tools"));
        assertTrue(String.valueOf(error(calls.handle(ToolOp.CALL, "stub.pid", "{}", TIME)).get("message")).contains("allow-list"));
    }

    @Test
    void parametersMustBeAJsonObjectWithinTheLimits() {
        ToolCalls calls = codeMode.open(new ToolGrant(true, null, 10));
        List<String> bad = List.of("[1, 2]", "\"text\"", "{not json", "x".repeat(2000),
                "{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}");
        List<Object> kinds = new ArrayList<>();
        for (String params : bad) {
            kinds.add(error(calls.handle(ToolOp.CALL, "stub.echo", params, TIME)).get("kind"));
        }
        assertEquals(java.util.Collections.nCopies(bad.size(), "invalid_params"), kinds);
    }

    @Test
    void anEndedExecutionRefusesFurtherRequestsAndKeepsItsRecord() {
        ToolCalls calls = codeMode.open(new ToolGrant(true, null, 10));
        calls.handle(ToolOp.CALL, "stub.pid", "{}", TIME);
        List<ToolCall> recorded = calls.finish(ToolErrorKind.TIMEOUT);
        assertEquals("not_configured", error(calls.handle(ToolOp.CALL, "stub.echo", "{}", TIME)).get("kind"));
        assertEquals(1, recorded.size());
        assertFalse(recorded.get(0).ok());
    }

    @Test
    void aNestedCallAndCodeModeOffAnswerNotConfigured() {
        assertEquals("not_configured", error(codeMode.open(new ToolGrant(false, null, 10))
                .handle(ToolOp.CALL, "stub.echo", "{}", TIME)).get("kind"));
        assertEquals("not_configured", error(CodeMode.off(SETTINGS, "off for the test").open(new ToolGrant(true, null, 10))
                .handle(ToolOp.CALL, "stub.echo", "{}", TIME)).get("kind"));
    }

    @Test
    void unknownRequestsAreProtocolErrors() {
        assertEquals("protocol_error", error(codeMode.open(new ToolGrant(true, null, 10))
                .handle(ToolOp.fromWire("format_disk"), "stub.echo", null, TIME)).get("kind"));
    }

    @Test
    void theRecordIsCappedAndTheRestCounted() {
        ToolCalls calls = codeMode.open(new ToolGrant(true, null, 1000));
        for (int i = 0; i < ExecutionTools.MAX_RECORDS + 7; i++) {
            calls.handle(ToolOp.CALL, "stub.pid", "{}", TIME);
        }
        assertEquals(ExecutionTools.MAX_RECORDS, calls.finish(ToolErrorKind.ABANDONED).size());
        assertEquals(7, calls.omitted());
    }
}
