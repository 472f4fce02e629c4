package dev.pysandbox.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.OutputFile;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolOp;
import dev.pysandbox.execution.Truncation;

/** The worker protocol's two families of messages, as lines: every type survives the trip, by today's names. */
class WorkerMessagesTest {
    private static final List<WorkerCommand> COMMANDS = List.of(
            new WorkerCommand.Execute(1, Language.PYTHON, "print(1)", "in\n", 30_000, "s-1", "<string>", Map.of(), "/srv/run", "{\"a\":1}"),
            new WorkerCommand.Execute(2, Language.PYTHON, "pass", null, 1_000, null, "script.py", null, null, null),
            new WorkerCommand.Validate(3, Language.PYTHON, "import os", 5_000, "{\"allowed\":[],\"known\":[]}"),
            new WorkerCommand.Cancel(4),
            new WorkerCommand.CloseSession("s-1"),
            new WorkerCommand.ToolResult(5, 2, "{\"ok\":true,\"value\":\"\\\"quoted\\\"\"}"));

    private static final List<WorkerEvent> EVENTS = List.of(
            new WorkerEvent.Ready("GraalVM CE", true),
            new WorkerEvent.Started(6),
            new WorkerEvent.ToolCall(6, 1, ToolOp.CALL_RAW, "srv.echo", "{\"text\":\"hi\"}"),
            new WorkerEvent.ToolCall(6, 2, ToolOp.LIST, "srv", null),
            new WorkerEvent.Result(6, new RunReport(Status.SUCCESS, "1\n", "", 0, 0.25, null, Map.of("k", 1),
                    Truncation.NONE, List.of(), 0, List.of("yaml"))
                    .withFiles(List.of(new OutputFile("a.txt", 2, "hi", null, false)), 1), true),
            new WorkerEvent.Result(7, RunReport.setupError("no"), false));

    private static <T> T again(T message, Class<T> family) {
        String line = WireCodec.encode(message);
        assertTrue(!line.contains("\n"), line);
        Decoded<T> decoded = WireCodec.read(line, family);
        return assertInstanceOf(Decoded.Message.class, decoded, line).message() instanceof Object value
                ? family.cast(value) : null;
    }

    @Test
    void everyCommandTypeComesBackEqual() {
        for (WorkerCommand command : COMMANDS) {
            assertEquals(command, again(command, WorkerCommand.class));
        }
    }

    @Test
    void everyEventTypeComesBackEqual() {
        for (WorkerEvent event : EVENTS) {
            assertEquals(event, again(event, WorkerEvent.class));
        }
    }

    @Test
    void filesTravelAsBase64AndComeBackByteForByte() {
        byte[] content = {0, 1, (byte) 0xff, '\n'};
        var sent = new WorkerCommand.Execute(8, Language.PYTHON, "pass", "", 1_000, null, "<string>", Map.of("in/data.bin", content),
                null, null);
        String line = WireCodec.encode(sent);
        assertTrue(line.contains("\"files\":{\"in/data.bin\":\"AAH/Cg==\"}"), line);
        var read = (WorkerCommand.Execute) again(sent, WorkerCommand.class);
        assertArrayEquals(content, read.files().get("in/data.bin"));
    }

    @Test
    void theLinesKeepTodaysTypeNamesAndFieldNames() {
        assertEquals("{\"type\":\"tool-result\",\"id\":5,\"seq\":2,\"reply\":\"{}\"}",
                WireCodec.encode(new WorkerCommand.ToolResult(5, 2, "{}")));
        assertEquals("{\"type\":\"tool-call\",\"id\":6,\"seq\":1,\"op\":\"call_raw\",\"tool\":\"srv.echo\",\"params\":\"{}\"}",
                WireCodec.encode(new WorkerEvent.ToolCall(6, 1, ToolOp.CALL_RAW, "srv.echo", "{}")));
        assertEquals("{\"type\":\"validate\",\"id\":3,\"language\":\"python\",\"code\":\"x\",\"timeoutMillis\":10,\"catalog\":\"{}\"}",
                WireCodec.encode(new WorkerCommand.Validate(3, Language.PYTHON, "x", 10, "{}")));
        assertEquals("{\"type\":\"ready\",\"engine\":\"Interpreted\",\"aotCache\":false}",
                WireCodec.encode(new WorkerEvent.Ready("Interpreted", false)));
        List<String> names = List.of("execute", "validate", "cancel", "close-session", "tool-result");
        for (int i = 0; i < names.size(); i++) {
            String line = WireCodec.encode(COMMANDS.get(i + 1));
            assertTrue(line.startsWith("{\"type\":\"" + names.get(i) + "\""), line);
        }
    }

    @Test
    void aLineInTheOldFlatShapeStillReads() {
        // Before the sealed families every command carried every field, null where it did not apply.
        String old = "{\"type\":\"cancel\",\"id\":9,\"code\":null,\"stdin\":null,\"timeoutMillis\":0,\"session\":null,"
                + "\"filename\":null,\"files\":{},\"workingDirectory\":null,\"inputs\":null,\"catalog\":null,\"seq\":0,"
                + "\"reply\":null}";
        assertEquals(new Decoded.Message<>(new WorkerCommand.Cancel(9)), WireCodec.read(old, WorkerCommand.class));
    }

    @Test
    void attackAResultLineClaimingWhatOnlyTheSupervisorKnowsReadsAsTheWorkersReportAlone() {
        String line = "{\"type\":\"result\",\"id\":3,\"report\":{\"status\":\"success\",\"stdout\":\"x\","
                + "\"exit_code\":0,\"execution_time\":0.1,\"session_new\":true,\"session_rebuilt\":7,"
                + "\"session_ended\":\"expired\",\"tool_calls\":[{\"tool\":\"a.b\",\"ok\":true,\"duration_ms\":1}],"
                + "\"installing\":[\"numpy\"],\"granted\":\"admin\"},\"recycle\":false}";
        assertEquals(new Decoded.Message<>(new WorkerEvent.Result(3, new RunReport(Status.SUCCESS, "x", "", 0, 0.1, null,
                null, Truncation.NONE), false)), WireCodec.read(line, WorkerEvent.class));
    }

    @Test
    void aLineOfAnUnknownTypeIsAValueThatNamesTheType() {
        assertEquals(new Decoded.UnknownType<>("reboot"), WireCodec.read("{\"type\":\"reboot\",\"id\":1}", WorkerCommand.class));
        assertEquals(new Decoded.UnknownType<>("execute"), WireCodec.read("{\"type\":\"execute\",\"id\":1}", WorkerEvent.class),
                "a command's type is not an event's");
    }

    @Test
    void attackAHugeUnknownTypeIsKeptShort() {
        String type = "x".repeat(1_000_000);
        var decoded = WireCodec.read("{\"type\":\"" + type + "\"}", WorkerEvent.class);
        assertEquals(new Decoded.UnknownType<>(type.substring(0, Decoded.MAX_TYPE_CHARS)), decoded);
    }

    @Test
    void linesThatAreNotProtocolAreValuesToo() {
        for (String line : List.of("OpenJDK 64-Bit Server VM warning: something", "{\"id\":1}", "[1,2]", "{\"type\":",
                "{\"type\":\"started\",\"id\":\"not a number\"}")) {
            assertInstanceOf(Decoded.NotProtocol.class, WireCodec.read(line, WorkerEvent.class), line);
        }
    }

    @Test
    void aToolCallNamingNoKnownOperationStillReadsSoItCanBeRefused() {
        for (String op : List.of("format_disk", "x".repeat(100_000), "CALL")) {
            var decoded = WireCodec.read("{\"type\":\"tool-call\",\"id\":1,\"seq\":1,\"op\":\"" + op
                    + "\",\"tool\":\"srv.echo\",\"params\":null}", WorkerEvent.class);
            var request = (WorkerEvent.ToolCall) assertInstanceOf(Decoded.Message.class, decoded).message();
            assertNull(request.op());
            assertEquals("srv.echo", request.tool());
        }
        for (ToolOp op : ToolOp.values()) {
            assertEquals(op, ToolOp.fromWire(op.wireName()));
        }
    }

    @Test
    void theEncodedLineIsUtf8WithoutRawControlCharacters() {
        String code = "print('\u0000\u001f\u2028é')\r\n";
        String line = WireCodec.encode(new WorkerCommand.Execute(1, Language.PYTHON, code, null, 1, null, null, null, null, null));
        for (byte b : line.getBytes(StandardCharsets.UTF_8)) {
            assertTrue(b < 0 || b >= 0x20, line);
        }
    }
}
