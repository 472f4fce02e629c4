package dev.pysandbox.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class RestartBackoffTest {
    private static List<Long> secondsAfterFailures(RestartBackoff backoff, int failures) {
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < failures; i++) {
            waits.add(backoff.failed().toSeconds());
        }
        return waits;
    }

    @Test
    void theWaitStartsAtOneSecondAndDoublesUpToTheCap() {
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L), secondsAfterFailures(new RestartBackoff(Duration.ofSeconds(30)), 7));
    }

    @Test
    void aStartThatSucceedsResetsTheWait() {
        RestartBackoff backoff = new RestartBackoff(Duration.ofSeconds(60));
        secondsAfterFailures(backoff, 4);
        assertTrue(backoff.failing());
        backoff.succeeded();
        assertFalse(backoff.failing());
        assertEquals(List.of(1L, 2L), secondsAfterFailures(backoff, 2));
    }

    @Test
    void aFreshBackoffIsNotFailing() {
        assertFalse(new RestartBackoff(Duration.ofSeconds(30)).failing());
    }

    @Test
    void aCapBelowTheFirstWaitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RestartBackoff(Duration.ofMillis(500)));
    }
}
