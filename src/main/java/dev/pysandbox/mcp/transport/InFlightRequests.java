package dev.pysandbox.mcp.transport;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;

/**
 * Subscriptions to the session's handling of inbound messages that have not finished yet.
 *
 * <p>Requests are also indexed by JSON-RPC id, because disposing a subscription is the only
 * way to cancel one: it interrupts a sync handler running on Reactor's boundedElastic and
 * drops the response before it is written.
 */
final class InFlightRequests {

    private static final Logger log = LoggerFactory.getLogger(InFlightRequests.class);

    private final Map<Object, Disposable> byId = new ConcurrentHashMap<>();
    private final Set<Disposable> running = ConcurrentHashMap.newKeySet();
    private final Object idle = new Object();

    /**
     * Subscribes to {@code work}.
     *
     * @param requestId the request's id, or null for notifications and responses
     */
    void track(Object requestId, Mono<Void> work) {
        Object key = requestId == null ? null : key(requestId);
        // The slot is registered before subscribing because work may finish, or be cancelled,
        // before subscribe() even returns; a disposed Swap disposes whatever is put in later.
        Disposable.Swap slot = Disposables.swap();
        running.add(slot);
        if (key != null) {
            // A duplicate id replaces the older entry: cancellation then reaches the newest request.
            byId.put(key, slot);
        }
        slot.update(work
                .doFinally(signal -> finished(key, slot))
                .subscribe(null, error -> log.warn("Handling message {} failed: {}", requestId, error.toString())));
    }

    /** Returns true if a request with this id was running and is now cancelled. */
    boolean cancel(Object requestId) {
        Disposable slot = byId.remove(key(requestId));
        if (slot == null) {
            return false;
        }
        slot.dispose();
        return true;
    }

    void cancelAll() {
        running.forEach(Disposable::dispose);
    }

    int size() {
        return running.size();
    }

    /** Waits until nothing is running; returns false if the timeout came first. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idle) {
            while (!running.isEmpty()) {
                long leftMillis = Math.ceilDiv(deadline - System.nanoTime(), 1_000_000L);
                if (leftMillis <= 0) {
                    return false;
                }
                idle.wait(leftMillis);
            }
            return true;
        }
    }

    private void finished(Object key, Disposable slot) {
        if (key != null) {
            byId.remove(key, slot);
        }
        running.remove(slot);
        synchronized (idle) {
            idle.notifyAll();
        }
    }

    /** Jackson reads small integers as Integer and large ones as Long; 5 and 5L must meet. */
    private static Object key(Object id) {
        return id instanceof Integer || id instanceof Long ? Long.valueOf(((Number) id).longValue()) : id;
    }
}
