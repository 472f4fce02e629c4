package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SharedCodeTest {
    @Test
    void theSameTextAndNameAreKeptOnce() {
        SharedCode shared = new SharedCode();
        shared.source("print(1)", "<string>");
        shared.source("print(1)", "<string>");
        assertEquals(1, shared.size());
        assertTrue(shared.keeps("print(1)", "<string>"));
    }

    @Test
    void anotherNameIsAnotherSourceBecauseTracebacksShowIt() {
        SharedCode shared = new SharedCode();
        shared.source("print(1)", "<string>");
        shared.source("print(1)", "script.py");
        assertEquals(2, shared.size());
    }

    @Test
    void onlyTheMostRecentlyUsedSourcesAreKept() {
        SharedCode shared = new SharedCode();
        for (int i = 0; i < SharedCode.KEPT; i++) {
            shared.source("x = " + i, "<string>");
        }
        shared.source("x = 0", "<string>"); // used again: now the most recent, so "x = 1" is the eldest
        shared.source("x = 'one more'", "<string>");
        assertEquals(SharedCode.KEPT, shared.size());
        assertTrue(shared.keeps("x = 0", "<string>"));
        assertFalse(shared.keeps("x = 1", "<string>"), "the least recently used is dropped");
        assertTrue(shared.keeps("x = 'one more'", "<string>"));
    }

    @Test
    void codeOverTheSizeLimitIsLeftToTheRunnerWithoutTouchingTheContext() {
        SharedCode shared = new SharedCode();
        assertNull(shared.parse(null, "#".repeat(SharedCode.MAX_CHARS + 1), "<string>"));
        assertEquals(0, shared.size());
    }
}
