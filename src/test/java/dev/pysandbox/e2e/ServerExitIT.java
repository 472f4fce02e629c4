package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.wire.WireCodec;

/**
 * No process outlives the server (issue 22, SECURITY.md): however it ends, its workers, its downstream servers and
 * what those started are gone too. Each test lists the server's process tree while calls are in flight (one
 * abandoned at its timeout and still running in the downstream server, one still running in a worker) and checks
 * that no process of it runs a few seconds after the server exited. The downstream server is the hard kind
 * ({@link StubMcpServer} with {@code --finish-calls-at-eof --child}): it does not exit at end of input while a
 * call runs, and it has a child of its own that never reads its input.
 */
class ServerExitIT {
    /** The tool call that keeps the downstream server busy: far longer than any test. */
    private static final String SLOW_CALL = "context.tools.call('stub.slow', {'ms': 1_000_000_000})";
    /** How long after the server's exit the test still waits for the rest of its tree. */
    private static final Duration AFTER_EXIT = Duration.ofSeconds(10);

    @TempDir
    Path temp;

    private String[] flags() throws IOException {
        Path servers = CodeModeIT.serversFile(temp, "servers.json",
                CodeModeIT.stub("stub", List.of("*"), List.of(), "--finish-calls-at-eof", "--child"));
        return new String[] {"--code-mode.servers=" + servers, "--workers=2", "--code-mode.tool-timeout-seconds=60"};
    }

    @Test
    void attackAbandonedToolCallsLeaveNoDownstreamProcessAfterClientClose() throws Exception {
        SandboxServer server = SandboxServer.start(flags());
        ProcessHandle serverProcess = serverOf(server);
        List<ProcessHandle> tree = treeWithCallsInFlight(serverProcess, server::execute, inBackground(server));
        server.close(); // the SDK client's own way: the server's pipes closed and a SIGTERM
        assertNothingOutlives(serverProcess, tree);
    }

    @Test
    void attackAbandonedToolCallsLeaveNoProcessAfterSigterm() throws Exception {
        SandboxServer server = SandboxServer.start(flags());
        ProcessHandle serverProcess = serverOf(server);
        List<ProcessHandle> tree = treeWithCallsInFlight(serverProcess, server::execute, inBackground(server));
        try {
            serverProcess.destroy(); // SIGTERM, as a service manager or a client stops a server
            assertNothingOutlives(serverProcess, tree);
        } finally {
            server.close();
        }
    }

    @Test
    void attackAbandonedToolCallsLeaveNoProcessAfterEndOfInput() throws Exception {
        try (RawServer server = RawServer.start(flags())) {
            int[] ids = {0};
            Function<Map<String, Object>, Map<String, Object>> call = arguments -> {
                String id = "call-" + ++ids[0];
                server.send(executeLine(id, arguments));
                return structured(server.awaitResponse(id, Duration.ofSeconds(240)));
            };
            List<ProcessHandle> tree = treeWithCallsInFlight(server.process.toHandle(), call,
                    arguments -> server.send(executeLine("in-flight", arguments)));
            server.closeStdin(); // end of input and nothing else: the server drains the call in flight, then ends
            assertNothingOutlives(server.process.toHandle(), tree);
        }
    }

    /** Sends execute_code on its own thread and does not wait: the answer may never come. */
    private static Consumer<Map<String, Object>> inBackground(SandboxServer server) {
        return arguments -> Thread.ofVirtual().start(() -> {
            try {
                server.execute(arguments);
            } catch (RuntimeException expected) {
                // the client closed or the server ended under this call: that is the point
            }
        });
    }

    private static String executeLine(String id, Map<String, Object> arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"execute_code\",\"arguments\":" + WireCodec.encode(arguments) + "}}";
    }

    /** The server JVM: the parent of the downstream server, whose pid the stub's own tool gives. */
    private static ProcessHandle serverOf(SandboxServer server) {
        Map<String, Object> pid = server.execute(python("result = int(context.tools.call('stub.pid'))", 30));
        ProcessHandle downstream = ProcessHandle.of(((Number) pid.get("result")).longValue())
                .orElseThrow(() -> new AssertionError("no downstream process: " + pid));
        return downstream.parent().orElseThrow(() -> new AssertionError("the downstream server has no parent"));
    }

    /**
     * Leaves one tool call abandoned in the downstream server (its execution timed out after 2 s) and one
     * execution in flight ({@code inFlight} sends it and does not wait for it), then lists the server's tree: the
     * server, its workers, the downstream server and the downstream's child.
     */
    private static List<ProcessHandle> treeWithCallsInFlight(ProcessHandle serverProcess,
            Function<Map<String, Object>, Map<String, Object>> execute, Consumer<Map<String, Object>> inFlight) {
        Map<String, Object> abandoned = execute.apply(python(SLOW_CALL, 2));
        assertEquals("timeout", abandoned.get("status"), abandoned.toString());
        inFlight.accept(python(SLOW_CALL, 10));
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(serverProcess);
        serverProcess.descendants().forEach(tree::add);
        System.err.println("[server-exit] the server's process tree before it ends:");
        tree.forEach(p -> System.err.println("[server-exit]   " + describe(p)));
        assertTrue(tree.stream().anyMatch(p -> commandLine(p).contains("WorkerMain")), "no worker in " + describeAll(tree));
        assertTrue(tree.stream().anyMatch(p -> commandLine(p).contains(StubMcpServer.class.getName())),
                "no downstream server in " + describeAll(tree));
        assertTrue(tree.stream().anyMatch(p -> commandLine(p).startsWith("sleep")),
                "no child of the downstream server in " + describeAll(tree));
        return tree;
    }

    private static Map<String, Object> python(String code, int timeoutSeconds) {
        return Map.of("language", "python", "code", code, "timeout", timeoutSeconds);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(Map<String, Object> response) {
        Map<String, Object> result = (Map<String, Object>) response.get("result");
        if (result == null || !(result.get("structuredContent") instanceof Map<?, ?> content)) {
            throw new AssertionError("no structured result: " + response);
        }
        return (Map<String, Object>) content;
    }

    /** Waits for the server to exit, then for the rest of its tree; kills and names whatever is left. */
    private static void assertNothingOutlives(ProcessHandle serverProcess, List<ProcessHandle> tree) throws Exception {
        try {
            serverProcess.onExit().get(120, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the server did not exit: " + describeAll(tree), e);
        }
        long deadline = System.nanoTime() + AFTER_EXIT.toNanos();
        while (tree.stream().anyMatch(ServerExitIT::running) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        List<ProcessHandle> survivors = tree.stream().filter(ServerExitIT::running).toList();
        survivors.forEach(ProcessHandle::destroyForcibly); // not left to the next test
        assertEquals("", describeAll(survivors), "processes of the server's tree still running " + AFTER_EXIT.toSeconds()
                + " s after the server exited");
    }

    /** Alive and not a zombie: a killed process may wait a moment for its new parent to reap it. */
    private static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | RuntimeException e) {
            return process.isAlive();
        }
    }

    private static String commandLine(ProcessHandle process) {
        return process.info().commandLine().orElse("").replaceFirst("^\\S*/", "");
    }

    private static String describe(ProcessHandle process) {
        String command = commandLine(process);
        return process.pid() + " " + (command.length() > 160 ? command.substring(0, 160) + "..." : command);
    }

    private static String describeAll(List<ProcessHandle> processes) {
        return String.join("; ", processes.stream().map(ServerExitIT::describe).toList());
    }
}
