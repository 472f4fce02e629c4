package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class HeaviestAtBothEndsTest {
    @Test
    void theLongestGoToTheTwoEndsInTurnAndTheShortestMeetInTheMiddle() {
        assertEquals(List.of(1, 3, 5, 4, 2), HeaviestAtBothEnds.atBothEnds(List.of(1, 2, 3, 4, 5)));
        assertEquals(List.of(1, 3, 4, 2), HeaviestAtBothEnds.atBothEnds(List.of(1, 2, 3, 4)));
        assertEquals(List.of(), HeaviestAtBothEnds.atBothEnds(List.of()));
    }
}
