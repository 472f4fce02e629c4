package dev.pysandbox.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class LanguageTest {
    @Test
    void aLanguageIsNamedInAnyCaseWithJsForJavaScript() {
        assertEquals(Optional.of(Language.PYTHON), Language.named(" Python "));
        assertEquals(Optional.of(Language.JAVASCRIPT), Language.named("JavaScript"));
        assertEquals(Optional.of(Language.JAVASCRIPT), Language.named("JS"));
        assertEquals(Optional.empty(), Language.named("typescript"));
        assertEquals(Optional.empty(), Language.named("py"));
    }

    @Test
    void theWorkerProtocolNamesItAsClientsDoAndReadsAnUnknownNameAsNone() {
        assertEquals("javascript", Language.JAVASCRIPT.wireName());
        assertEquals(Language.JAVASCRIPT, Language.fromWire("javascript"));
        assertEquals(null, Language.fromWire("cobol"));
    }
}
