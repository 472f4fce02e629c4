package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * 500 calls with 16 in flight through the SDK client, on the default workers: every call answered, each
 * with its own output. The soak (bin/soak) runs the same kind of load longer, with hostile calls mixed in.
 * (It ran 2,000 calls, three and a half minutes of the suite's time; long load is the soak's job.)
 */
class LoadIT {
    private static final int CALLS = 500;
    private static final int IN_FLIGHT = 16;

    @Test
    void everyConcurrentCallIsAnsweredCorrectly() throws Exception {
        try (SandboxServer server = SandboxServer.start()) {
            callConcurrently(server);
        }
    }

    private static void callConcurrently(SandboxServer server) throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<String> wrong = new java.util.concurrent.CopyOnWriteArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(IN_FLIGHT);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < IN_FLIGHT; t++) {
            done.add(clients.submit(() -> {
                for (int n = next.getAndIncrement(); n < CALLS; n = next.getAndIncrement()) {
                    Map<String, Object> result = server.python("n = " + n + "\nprint(n * n)\nresult = n");
                    if (!(Long.toString((long) n * n) + "\n").equals(result.get("stdout"))
                            || ((Number) result.get("result")).intValue() != n) {
                        wrong.add(n + " -> " + result);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        clients.shutdown();
        assertEquals(List.of(), wrong);
    }
}
