package dev.pysandbox.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Timers that run a task only when the test says so: deadlines and back-offs become steps of a test, not waits.
 * {@link #execute} runs its task at once, on the calling thread.
 */
final class ManualTimers extends AbstractExecutorService implements ScheduledExecutorService {
    /** A task waiting for the test to run it. */
    private static final class Scheduled extends FutureTask<Void> implements ScheduledFuture<Void> {
        final Duration delay;

        Scheduled(Runnable task, Duration delay) {
            super(task, null);
            this.delay = delay;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(delay);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }
    }

    private final List<Scheduled> scheduled = new ArrayList<>();
    private final List<Duration> history = new ArrayList<>();
    private boolean shutdown;

    @Override
    public void execute(Runnable command) {
        if (isShutdown()) {
            throw new RejectedExecutionException("shut down");
        }
        command.run();
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        if (shutdown) {
            throw new RejectedExecutionException("shut down");
        }
        Scheduled task = new Scheduled(command, Duration.of(delay, unit.toChronoUnit()));
        scheduled.add(task);
        history.add(task.delay);
        notifyAll();
        return task;
    }

    /** The delays of every task scheduled so far, cancelled or run or not, in order. */
    synchronized List<Duration> history() {
        return List.copyOf(history);
    }

    /**
     * Waits until a task with this delay is waiting (30 s at most, a guard against a hang), then runs it, on this
     * thread; the first such task if there are several.
     */
    void fire(Duration delay) throws InterruptedException {
        Scheduled task;
        synchronized (this) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((task = waiting(delay)) == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no task waits " + delay + "; scheduled: " + history);
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            scheduled.remove(task);
        }
        task.run();
    }

    /** Whether a task with this delay waits now (scheduled, not cancelled, not run). */
    synchronized boolean waits(Duration delay) {
        return waiting(delay) != null;
    }

    private Scheduled waiting(Duration delay) {
        scheduled.removeIf(Scheduled::isCancelled);
        return scheduled.stream().filter(task -> task.delay.equals(delay)).findFirst().orElse(null);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("the supervisor schedules Runnables");
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException("not used by WorkerPool or WorkerProcess");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("not used by WorkerPool or WorkerProcess");
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = new ArrayList<>(scheduled);
        scheduled.clear();
        return left;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isShutdown();
    }
}
