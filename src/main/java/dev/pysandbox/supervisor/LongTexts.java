package dev.pysandbox.supervisor;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.pysandbox.execution.TextDigest;

/**
 * The code texts whose calls ran long before ({@link LongCalls#LONG_TEXT}): a call with one of them gets its twin at
 * once instead of after the delay. An agent that sends the same long computation again (a loop over parameters, a retry) then gets the JIT
 * worker's speed from the start, and that worker's engine has often kept the code compiled from the last time
 * (BENCHMARKS.md, "Long calls and their twins"). Only digests are kept, the {@value #SIZE} most recently seen.
 */
final class LongTexts {
    static final int SIZE = 256;

    private final Map<String, Boolean> digests = new LinkedHashMap<>(SIZE, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > SIZE;
        }
    };

    /** Remembers that a call of {@code code} ran long. */
    synchronized void ranLong(String code) {
        digests.put(TextDigest.of(code), Boolean.TRUE);
    }

    /** Whether a call of {@code code} ran long before (among those remembered). */
    synchronized boolean ranLongBefore(String code) {
        return digests.get(TextDigest.of(code)) != null;
    }
}
