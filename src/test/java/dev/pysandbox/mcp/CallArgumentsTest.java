package dev.pysandbox.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.pysandbox.mcp.CallArguments.InvalidArgument;

/** The second line of argument checks, for clients that skip the schema; every message names its field. */
class CallArgumentsTest {
    @Test
    void stringsAreCheckedForPresenceAndType() throws InvalidArgument {
        CallArguments args = new CallArguments(Map.of("code", "x", "n", 3));
        assertEquals("x", args.requiredString("code"));
        assertNull(args.optionalString("stdin"));
        assertTrue(assertThrows(InvalidArgument.class, () -> args.requiredString("language")).getMessage().contains("'language'"));
        assertTrue(assertThrows(InvalidArgument.class, () -> args.optionalString("n")).getMessage().contains("'n'"));
    }

    @Test
    void integersAreWholeAndInRange() throws InvalidArgument {
        assertEquals(30, new CallArguments(Map.of()).optionalInt("timeout", 1, 300, 30));
        assertEquals(5, new CallArguments(Map.of("timeout", 5.0)).optionalInt("timeout", 1, 300, 30));
        assertThrows(InvalidArgument.class, () -> new CallArguments(Map.of("timeout", 2.5)).optionalInt("timeout", 1, 300, 30));
        assertThrows(InvalidArgument.class, () -> new CallArguments(Map.of("timeout", 0)).optionalInt("timeout", 1, 300, 30));
        assertThrows(InvalidArgument.class, () -> new CallArguments(Map.of("timeout", 301)).optionalInt("timeout", 1, 300, 30));
        assertThrows(InvalidArgument.class, () -> new CallArguments(Map.of("timeout", "5")).optionalInt("timeout", 1, 300, 30));
    }

    @Test
    void codeSizeCountsUtf8Bytes() throws InvalidArgument {
        CodeRunner runner = new CodeRunner(null, 100, java.time.Duration.ofSeconds(5), null, modules -> { });
        runner.checkSize("x".repeat(100));
        assertThrows(InvalidArgument.class, () -> runner.checkSize("x".repeat(101)));
        // 40 three-byte characters are 120 bytes, over a 100-byte limit though only 40 chars long.
        assertThrows(InvalidArgument.class, () -> runner.checkSize("€".repeat(40)));
    }
}
