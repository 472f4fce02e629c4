package dev.pysandbox.metrics;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.SessionEnding;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.supervisor.SandboxStatistics;
import dev.pysandbox.supervisor.WorkerEndCause;
import dev.pysandbox.supervisor.WorkerState;

/**
 * The server's metrics, for an operator's Prometheus (remote mode's {@code /metrics}; README, "Metrics"). The
 * exposition is Micrometer's Prometheus registry's, not written here. Calls are counted as they end; the
 * supervisor's state (workers, waiting calls, sessions, replacements, the workers' memory) is read once per
 * scrape, from {@link SandboxStatistics}.
 */
public final class ServerMetrics {
    /**
     * The call latency histogram's buckets: calls take from tens of milliseconds (a ready context) to the
     * longest timeout, 300 s.
     */
    private static final Duration[] LATENCY_BUCKETS = {Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(120), Duration.ofSeconds(300)};

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Supplier<SandboxStatistics> sandbox;
    private volatile SandboxStatistics now;

    /** @param sandbox the supervisor's state, read at each scrape */
    public ServerMetrics(Supplier<SandboxStatistics> sandbox) {
        this.sandbox = sandbox;
        this.now = sandbox.get();
        for (WorkerState state : WorkerState.values()) {
            Gauge.builder("pysandbox.workers", this, metrics -> metrics.now.workers().getOrDefault(state, 0))
                    .description("Worker slots by what their worker is doing").tag("state", state.label())
                    .register(registry);
        }
        Gauge.builder("pysandbox.calls.waiting", this, metrics -> metrics.now.callsWaiting())
                .description("Calls waiting for a worker").register(registry);
        for (WorkerEndCause cause : WorkerEndCause.values()) {
            FunctionCounter.builder("pysandbox.worker.replacements", this,
                            metrics -> metrics.now.workersEnded().getOrDefault(cause, 0L))
                    .description("Workers ended and replaced, by cause").tag("cause", cause.label()).register(registry);
        }
        Gauge.builder("pysandbox.sessions.open", this, metrics -> metrics.now.sessionsOpen())
                .description("Sessions open").register(registry);
        for (SessionEnding why : SessionEnding.values()) {
            FunctionCounter.builder("pysandbox.sessions.ended", this,
                            metrics -> metrics.now.sessionsEnded().getOrDefault(why, 0L))
                    .description("Sessions ended, by why (evicted to make room, expired, ...)")
                    .tag("reason", why.wireName()).register(registry);
        }
        Gauge.builder("pysandbox.worker.resident.memory", this, metrics -> metrics.now.workerResidentBytes())
                .description("Memory the worker processes hold, together").baseUnit("bytes").register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
    }

    /**
     * One call of one of our tools has ended.
     *
     * @param language  the language of its code ({@code python}, {@code javascript}); null for a call with none
     *                  ({@code inspect_session}, a language the sandbox does not run), counted as {@code none}
     * @param status    how it ended; a call the arguments' rules refused is a {@code setup_error}
     * @param toolCalls the operator's tools it called through code mode
     */
    public void toolCallEnded(String tool, Language language, Status status, Duration elapsed,
            List<ToolCall> toolCalls) {
        Timer.builder("pysandbox.tool.calls").description("Calls of the server's tools, by tool, language and status")
                .tag("tool", tool).tag("language", language == null ? "none" : language.wireName())
                .tag("status", status.wireName()).serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry).record(elapsed);
        for (ToolCall call : toolCalls) {
            Counter.builder("pysandbox.code.mode.tool.calls")
                    .description("Calls of the operator's tools from code (code mode), by outcome")
                    .tag("outcome", call.ok() ? "ok" : call.error() == null ? "error" : call.error().wireName())
                    .register(registry).increment();
        }
    }

    /** The metrics in Prometheus's text format. */
    public String scrape() {
        now = sandbox.get();
        return registry.scrape();
    }
}
