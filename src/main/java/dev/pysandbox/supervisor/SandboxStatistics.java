package dev.pysandbox.supervisor;

import java.util.Map;

import dev.pysandbox.execution.SessionEnding;

/**
 * What the supervisor is doing, read at one moment for the server's metrics. Each part is read under the lock that
 * keeps it; the parts are not one atomic snapshot, which a scrape does not need.
 *
 * @param workers             worker slots by state
 * @param callsWaiting        calls waiting for a worker now
 * @param workersEnded        workers ended since the server started, by cause (each one replaced)
 * @param sessionsOpen        sessions open now
 * @param sessionsEnded       sessions ended since the server started, by why
 * @param workerResidentBytes the memory the workers' processes hold now, together
 */
public record SandboxStatistics(Map<WorkerState, Integer> workers, int callsWaiting,
        Map<WorkerEndCause, Long> workersEnded, int sessionsOpen, Map<SessionEnding, Long> sessionsEnded,
        long workerResidentBytes) {
    public SandboxStatistics {
        workers = Map.copyOf(workers);
        workersEnded = Map.copyOf(workersEnded);
        sessionsEnded = Map.copyOf(sessionsEnded);
    }
}
