package dev.pysandbox.mcp;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.pysandbox.execution.CallPhase;

/**
 * {@code notifications/progress} for one call that carried a progress token, every interval until the call
 * ends. Clients give up on a request after a timeout of their own (the TypeScript SDK's is 60 s) unless
 * progress resets it, so without these a long computation that the server would finish is lost.
 *
 * <p>{@code progress} is the seconds since the call arrived, so it grows with every notification;
 * {@code total} is the call's timeout plus whatever it waited before it started to run, so that a running
 * call approaches it. Nothing is sent once {@link #close()} has returned: the answer goes after that.
 */
final class CallProgress implements Consumer<CallPhase>, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CallProgress.class);

    /** Sends one notification; the MCP exchange's, in the server. */
    interface Sender {
        void send(ProgressNotification notification);
    }

    private final Object token;
    private final Sender sender;
    private final long timeoutSeconds;
    private final long startNanos = System.nanoTime();
    private final ScheduledFuture<?> ticks;
    private volatile CallPhase phase;
    private volatile long runningSinceNanos;
    private double lastProgress;
    private boolean closed;

    /**
     * Starts reporting if the call has a progress token ({@code _meta.progressToken}, may be null); without
     * one, this sends nothing.
     */
    CallProgress(Object token, Sender sender, Duration timeout, Duration interval, ScheduledExecutorService timers) {
        this.token = token;
        this.sender = sender;
        this.timeoutSeconds = timeout.toSeconds();
        long millis = interval.toMillis();
        this.ticks = token == null ? null : timers.scheduleAtFixedRate(this::tick, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Told by the sandbox as the call moves on; cheap, because the sandbox may call it under a lock. */
    @Override
    public void accept(CallPhase next) {
        if (next == CallPhase.RUNNING && phase != CallPhase.RUNNING) {
            runningSinceNanos = System.nanoTime();
        }
        phase = next;
    }

    /** Stops the notifications; when this returns, none is being sent and none will be. */
    @Override
    public synchronized void close() {
        closed = true;
        if (ticks != null) {
            ticks.cancel(false);
        }
    }

    private synchronized void tick() {
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        double elapsed = Math.max(lastProgress + 0.1, Math.round((now - startNanos) / 1e8) / 10.0);
        lastProgress = elapsed;
        CallPhase current = phase;
        Double total = null;
        String message;
        if (current == CallPhase.RUNNING) {
            double waited = (runningSinceNanos - startNanos) / 1e9;
            total = Math.round((timeoutSeconds + waited) * 10) / 10.0;
            message = "running " + seconds(now - runningSinceNanos) + " of the " + timeoutSeconds + " s timeout";
        } else if (current == CallPhase.WAITING_FOR_WORKER) {
            message = "waiting " + seconds(now - startNanos) + " for a free sandbox worker";
        } else if (current == CallPhase.WAITING_FOR_SESSION) {
            message = "waiting " + seconds(now - startNanos) + " for the session's previous call to finish";
        } else {
            message = "starting";
        }
        try {
            sender.send(new ProgressNotification(token, elapsed, total, message));
        } catch (RuntimeException e) {
            // The client went away or stopped reading; the call itself goes on and answers if it can.
            log.debug("progress for {} not sent: {}", token, e.toString());
        }
    }

    private static String seconds(long nanos) {
        return Math.round(nanos / 1e9) + " s";
    }
}
