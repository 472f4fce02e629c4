package dev.pysandbox.worker.javascript;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;

/**
 * Parses user code as {@code node -e} would run it: as a script, so that a session's top-level declarations stay
 * global; and, when it awaits or imports at its top level (which a script may not), as a module. The recent
 * texts are kept as cached {@link Source}s, so that the same text in another context of the engine reuses its
 * parsed code, as {@code worker/SharedCode} does for Python.
 */
final class JavaScriptSources {
    /** How many recent snippets keep their parsed code. */
    static final int KEPT = 32;
    /** Larger snippets are rarely sent twice; they are parsed per call. */
    static final int MAX_CHARS = 64 * 1024;
    /** What only a module may hold at its top level. */
    private static final Pattern MODULE_SYNTAX = Pattern.compile("\\b(await|import|export)\\b");

    private record Key(boolean module, String filename, String code) {
    }

    private final Map<Key, Source> recent = new LinkedHashMap<>(KEPT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Source> eldest) {
            return size() > KEPT;
        }
    };

    /**
     * The code parsed in {@code context}, ready to run; throws the script's syntax error (a
     * {@link PolyglotException}) when it parses neither as a script nor as a module.
     */
    Value parse(Context context, String code, String filename) {
        try {
            return context.parse(source(false, code, filename));
        } catch (PolyglotException script) {
            if (!script.isSyntaxError() || !MODULE_SYNTAX.matcher(code).find()) {
                throw script;
            }
            try {
                return context.parse(source(true, code, filename));
            } catch (PolyglotException module) {
                if (module.isSyntaxError()) {
                    throw script;
                }
                throw module;
            }
        }
    }

    private Source source(boolean module, String code, String filename) {
        if (code.length() > MAX_CHARS) {
            return build(new Key(module, filename, code));
        }
        synchronized (this) {
            return recent.computeIfAbsent(new Key(module, filename, code), JavaScriptSources::build);
        }
    }

    private static Source build(Key key) {
        Source.Builder builder = Source.newBuilder("js", key.code(), key.filename()).cached(key.code().length() <= MAX_CHARS);
        if (key.module()) {
            builder.mimeType("application/javascript+module");
        }
        return builder.buildLiteral();
    }
}
