package dev.pysandbox.worker;

import java.util.LinkedHashMap;
import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;

/**
 * Lets fresh contexts share the compiled code of user code they have in common. Code compiled by Python's
 * {@code compile()} belongs to its context and dies with it, so the same snippet sent again ran interpreted
 * again (fib(27): 200 to 2,200 ms). Parsed as a cached polyglot {@link Source}, its code is shared through the
 * engine, and the second fresh context runs it compiled (10 to 37 ms; bench/context-cost).
 *
 * <p>The engine keeps a source's code only while an equal {@code Source} object is referenced, hence the
 * most recent ones are kept here. Only the code is shared, never state: each context runs it in its own
 * {@code __main__}.
 */
final class SharedCode {
    /** How many recent snippets keep their compiled code. */
    static final int KEPT = 32;
    /** Larger snippets are rarely sent twice; they are compiled per call. */
    static final int MAX_CHARS = 64 * 1024;

    private record Key(String filename, String code) {
    }

    private final Map<Key, Source> recent = new LinkedHashMap<>(KEPT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Source> eldest) {
            return size() > KEPT;
        }
    };

    /**
     * The code parsed in this context as a callable module, or null when the runner should compile it itself:
     * the code is too large, or it does not parse (the runner then reports the syntax error as Python would).
     */
    Value parse(Context context, String code, String filename) {
        if (code.length() > MAX_CHARS) {
            return null;
        }
        try {
            return context.parse(source(code, filename));
        } catch (PolyglotException e) {
            if (e.isSyntaxError()) {
                return null;
            }
            throw e;
        }
    }

    synchronized int size() {
        return recent.size();
    }

    /** Whether this text and name is among the recent ones; looking does not make it more recent. */
    synchronized boolean keeps(String code, String filename) {
        return recent.containsKey(new Key(filename, code));
    }

    synchronized Source source(String code, String filename) {
        return recent.computeIfAbsent(new Key(filename, code),
                key -> Source.newBuilder("python", key.code(), key.filename()).cached(true).buildLiteral());
    }
}
