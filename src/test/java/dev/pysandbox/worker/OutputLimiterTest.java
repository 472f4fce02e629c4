package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class OutputLimiterTest {
    private static void write(OutputLimiter limiter, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        limiter.write(bytes, 0, bytes.length);
    }

    @Test
    void outputWithinTheBudgetIsKeptWhole() {
        OutputLimiter limiter = new OutputLimiter(20, 1000, () -> { });
        write(limiter, "hello ");
        write(limiter, "world");
        assertEquals("hello world", limiter.text());
        assertFalse(limiter.truncated());
    }

    @Test
    void longOutputKeepsHeadAndTailAndCountsWhatWasDropped() {
        OutputLimiter limiter = new OutputLimiter(10, 1000, () -> { });
        write(limiter, "ABCDE");
        write(limiter, "0123456789");
        write(limiter, "vwxyz");
        assertTrue(limiter.truncated());
        assertEquals("ABCDE" + OutputLimiter.MARKER_FORMAT.formatted(10) + "vwxyz", limiter.text());
        assertEquals(20, limiter.totalBytes());
    }

    @Test
    void floodCallbackRunsOnceWhenTheStopLimitIsPassed() {
        AtomicInteger floods = new AtomicInteger();
        OutputLimiter limiter = new OutputLimiter(10, 25, floods::incrementAndGet);
        write(limiter, "x".repeat(25));
        assertEquals(0, floods.get(), "at the limit is not past it");
        write(limiter, "x");
        write(limiter, "x".repeat(100));
        assertEquals(1, floods.get());
    }

    @Test
    void singleByteWritesAreCountedLikeBulkWrites() {
        OutputLimiter limiter = new OutputLimiter(4, 1000, () -> { });
        for (byte b : "abcdefgh".getBytes(StandardCharsets.UTF_8)) {
            limiter.write(b);
        }
        assertEquals("ab" + OutputLimiter.MARKER_FORMAT.formatted(4) + "gh", limiter.text());
    }
}
