package dev.pysandbox.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.SessionEnding;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.ToolErrorKind;
import dev.pysandbox.supervisor.SandboxStatistics;
import dev.pysandbox.supervisor.WorkerEndCause;
import dev.pysandbox.supervisor.WorkerState;

class ServerMetricsTest {
    private static SandboxStatistics statistics(int busy, long outOfMemory, int waiting) {
        return new SandboxStatistics(Map.of(WorkerState.STARTING, 0, WorkerState.IDLE, 1, WorkerState.BUSY, busy),
                waiting, Map.of(WorkerEndCause.OUT_OF_MEMORY, outOfMemory), 3, Map.of(SessionEnding.EVICTED, 2L),
                300_000_000L);
    }

    @Test
    void callsAreCountedByToolLanguageAndStatusWithTheirLatency() {
        ServerMetrics metrics = new ServerMetrics(() -> statistics(0, 0, 0));
        metrics.toolCallEnded("execute_code", Language.PYTHON, Status.SUCCESS, Duration.ofMillis(80), List.of());
        metrics.toolCallEnded("execute_code", Language.JAVASCRIPT, Status.SUCCESS, Duration.ofMillis(700), List.of());
        metrics.toolCallEnded("execute_code", Language.PYTHON, Status.SUCCESS, Duration.ofMillis(900), List.of());
        metrics.toolCallEnded("inspect_session", null, Status.SUCCESS, Duration.ofMillis(5), List.of());
        metrics.toolCallEnded("run_python", Language.PYTHON, Status.TIMEOUT, Duration.ofSeconds(31), List.of());
        String text = metrics.scrape();
        String python = "language=\"python\",status=\"success\",tool=\"execute_code\"";
        assertTrue(text.contains("pysandbox_tool_calls_seconds_count{" + python + "} 2"), text);
        assertTrue(text.contains("pysandbox_tool_calls_seconds_count{language=\"javascript\",status=\"success\","
                + "tool=\"execute_code\"} 1"), text);
        assertTrue(text.contains("pysandbox_tool_calls_seconds_count{language=\"none\",status=\"success\","
                + "tool=\"inspect_session\"} 1"), text);
        assertTrue(text.contains("pysandbox_tool_calls_seconds_count{language=\"python\",status=\"timeout\","
                + "tool=\"run_python\"} 1"), text);
        assertTrue(text.contains("pysandbox_tool_calls_seconds_bucket{" + python + ",le=\"0.1\"} 1"), text);
        assertTrue(text.contains("pysandbox_tool_calls_seconds_bucket{" + python + ",le=\"1.0\"} 2"), text);
    }

    @Test
    void theSupervisorsStateIsReadAtEachScrape() {
        AtomicReference<SandboxStatistics> now = new AtomicReference<>(statistics(0, 0, 0));
        ServerMetrics metrics = new ServerMetrics(now::get);
        now.set(statistics(1, 4, 2));
        String text = metrics.scrape();
        assertTrue(text.contains("pysandbox_workers{state=\"busy\"} 1"), text);
        assertTrue(text.contains("pysandbox_calls_waiting 2"), text);
        assertTrue(text.contains("pysandbox_worker_replacements_total{cause=\"out_of_memory\"} 4"), text);
        assertTrue(text.contains("pysandbox_worker_replacements_total{cause=\"max_calls\"} 0"), text);
        assertTrue(text.contains("pysandbox_sessions_open 3"), text);
        assertTrue(text.contains("pysandbox_sessions_ended_total{reason=\"evicted\"} 2"), text);
        assertTrue(text.contains("pysandbox_worker_resident_memory_bytes 3.0E8"), text);
        assertTrue(text.contains("jvm_memory_used_bytes{"), text);
    }

    @Test
    void codeModeToolCallsAreCountedByOutcome() {
        ServerMetrics metrics = new ServerMetrics(() -> statistics(0, 0, 0));
        metrics.toolCallEnded("execute_code", Language.PYTHON, Status.SUCCESS, Duration.ofSeconds(1), List.of(
                new ToolCall("fs.read", true, 10, null), new ToolCall("fs.read", true, 12, null),
                new ToolCall("fs.write", false, 3, ToolErrorKind.NOT_ALLOWED)));
        String text = metrics.scrape();
        assertTrue(text.contains("pysandbox_code_mode_tool_calls_total{outcome=\"ok\"} 2"), text);
        assertTrue(text.contains("pysandbox_code_mode_tool_calls_total{outcome=\"not_allowed\"} 1"), text);
    }
}
