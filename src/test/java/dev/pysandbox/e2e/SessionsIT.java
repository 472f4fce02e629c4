package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * Sessions that last (BENCHMARKS.md, "Sessions that last"), seen through a real client and one worker of 256 MB
 * holding at most 16 sessions: sessions churned for a while leave the worker's heap where it was, a session is
 * lost only through its own calls, and {@code inspect_session} tells what a session holds without running code
 * (ConfiguredLimitsIT: why it ended).
 */
class SessionsIT {
    private static SandboxServer server;

    @BeforeAll
    static void start() {
        server = SandboxServer.start("--workers=1", "--worker.heap=256m", "--sessions.per-worker=16",
                "--worker.max-calls=100000");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> inSession(String id, String code) {
        return server.execute(Map.of("language", "python", "code", code, "session_id", id));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> inspect(String id) {
        CallToolResult answer = server.call("inspect_session", Map.of("session_id", id));
        assertTrue(answer.isError() == null || !answer.isError(), () -> SandboxServer.text(answer));
        return (Map<String, Object>) answer.structuredContent();
    }

    /** The worker's heap after a full collection, as the worker measures it for inspect_session. */
    @SuppressWarnings("unchecked")
    private static long workerHeapAfterCollection(String liveSession) {
        Map<String, Object> memory = (Map<String, Object>) inspect(liveSession).get("memory");
        return ((Number) memory.get("worker_heap_used_bytes")).longValue();
    }

    /**
     * Rounds of 16 new sessions, each call defining a function of new text, each round evicting the one before:
     * on GraalPy 25.2 every function any context defined stayed compiled in the engine for good, and the heap
     * after a full collection grew with every round (by a fifth from the second round to the sixth,
     * BENCHMARKS.md) until the worker ran out of memory.
     */
    @Test
    void sessionsOpenedAndEvictedLeaveTheWorkersHeapWhereItWas() {
        List<Long> heaps = new ArrayList<>();
        int serial = 0;
        for (int round = 0; round < 6; round++) {
            List<String> ids = new ArrayList<>();
            for (int s = 0; s < 16; s++) {
                ids.add("churn-" + (serial++));
            }
            for (int call = 0; call < 15; call++) {
                for (String id : ids) {
                    Map<String, Object> result = inSession(id, "# " + id + " " + call + "\nimport json, statistics\n"
                            + "n = globals().get('n', 0) + 1\ndef f_" + call + "(x):\n    return x * " + call + "\n"
                            + "values = [f_" + call + "(i) for i in range(200)]\n"
                            + "print(n, statistics.mean(values), json.dumps({'n': n}))\n");
                    assertEquals("success", result.get("status"), result::toString);
                }
            }
            heaps.add(workerHeapAfterCollection(ids.get(ids.size() - 1)));
        }
        System.err.println("[sessions] heap after full collection per round, MB: "
                + heaps.stream().map(bytes -> bytes / (1024 * 1024)).toList());
        long warm = heaps.get(1);
        long last = heaps.get(heaps.size() - 1);
        assertTrue(last <= warm * 1.10, "heap after a full collection grew from " + warm + " to " + last + " bytes");
    }

    @Test
    @SuppressWarnings("unchecked")
    void inspectingASessionTellsItsVariablesAndSizesWithoutRunningItsCode() {
        inSession("frame", "rows = [{'id': i, 'name': 'row%d' % i, 'score': i * 0.5} for i in range(100_000)]\n"
                + "calls_seen = 1\nlabel = 'orders'\ndef total():\n    return sum(r['score'] for r in rows)");
        Map<String, Object> report = inspect("frame");
        assertEquals("live", report.get("state"), report::toString);
        assertEquals(1, report.get("calls"));
        assertEquals(true, report.get("rebuildable"));
        List<Map<String, Object>> variables = (List<Map<String, Object>>) report.get("variables");
        assertNotNull(variables, "the worker looked: " + report);
        Map<String, Object> rows = variables.get(0);
        assertEquals("rows", rows.get("name"), "the largest first: " + variables);
        assertEquals("list", rows.get("type"));
        assertEquals(100_000, rows.get("length"));
        assertTrue(((Number) rows.get("size_bytes")).longValue() > 10_000_000, rows::toString);
        assertTrue(variables.stream().anyMatch(v -> v.get("name").equals("total") && v.get("type").equals("function")),
                variables::toString);
        assertEquals("1\n", inSession("frame", "print(calls_seen)").get("stdout"), "looking ran none of its code");
        assertEquals(2, inspect("frame").get("calls"));
    }

    @Test
    void attackAMemoryBombInOneSessionLeavesAnotherSessionsStateIntact() {
        inSession("bystander", "kept = [1, 2, 3]");
        inSession("bomber", "ready = True");
        Map<String, Object> bomb = inSession("bomber", "blocks = []\nwhile True:\n    blocks.append(bytearray(10 ** 7))");
        assertEquals("execution_error", bomb.get("status"), bomb::toString);
        Map<String, Object> bystander = inSession("bystander", "kept.append(4)\nprint(kept)");
        assertEquals("[1, 2, 3, 4]\n", bystander.get("stdout"), bystander::toString);
        assertEquals(1, bystander.get("session_rebuilt"), "its worker was lost to the bomber's call");
        assertEquals("lost_to_its_own_call", inSession("bomber", "print(ready)").get("session_ended"));
    }

    @Test
    void attackAMemoryBombWithoutASessionLeavesASessionsStateIntact() {
        inSession("steady", "total = 10");
        Map<String, Object> bomb = server.python("blocks = []\nwhile True:\n    blocks.append(bytearray(10 ** 7))");
        assertEquals("execution_error", bomb.get("status"), bomb::toString);
        Map<String, Object> after = inSession("steady", "total += 1\nprint(total)");
        assertEquals("11\n", after.get("stdout"), after::toString);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aJavaScriptSessionKeepsItsGlobalsTellsThemWhenInspectedAndRefusesPython() {
        String id = "js-session";
        Map<String, Object> first = server.execute(Map.of("language", "javascript", "session_id", id,
                "code", "var rows = [1, 2, 3]; function total() { return rows.reduce((a, b) => a + b); }"));
        assertEquals("success", first.get("status"), first::toString);
        Map<String, Object> later = server.execute(Map.of("language", "js", "session_id", id,
                "code", "rows.push(4); console.log(total())"));
        assertEquals("10\n", later.get("stdout"), later::toString);
        List<String> names = ((List<Map<String, Object>>) inspect(id).get("variables")).stream()
                .map(variable -> (String) variable.get("name")).toList();
        assertTrue(names.containsAll(List.of("rows", "total")), names::toString);
        Map<String, Object> python = inSession(id, "print(rows)");
        assertEquals("setup_error", python.get("status"), python::toString);
        assertTrue(String.valueOf(python.get("error_message")).contains("This session runs JavaScript"), python::toString);
        Map<String, Object> after = server.execute(Map.of("language", "javascript", "session_id", id,
                "code", "console.log(rows.length)"));
        assertEquals("4\n", after.get("stdout"), "the refused call left the session as it was");
    }
}
