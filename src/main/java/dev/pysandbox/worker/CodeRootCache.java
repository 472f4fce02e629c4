package dev.pysandbox.worker;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.graalvm.polyglot.Context;

/**
 * Makes GraalPy let go of the compiled code of functions no context uses any more.
 *
 * <p>GraalPy 25.2 keeps the root node of every function, class body, lambda and comprehension that any context of
 * an engine ever defined in one map of its language, {@code PythonLanguage.runtimeCachedRootNodes}, keyed by
 * the identity of the code unit and never emptied (upstream at 25.2.4 and on its main branch). With a shared
 * engine that is every function of every session and every call: a worker whose sessions came and went held the
 * compiled code, parse trees and compiler state of all of them, and died of {@code OutOfMemoryError}
 * (BENCHMARKS.md, "Sessions that last"). The map is there so that contexts share the code of the standard
 * library, which must stay.
 *
 * <p>This replaces the map with one that tells the two apart by where a code unit came from. Code read from
 * bytecode files (the standard library, installed packages, frozen modules) is kept as GraalPy keeps it. Code
 * compiled from source in this engine (user code, the prelude) is held by reachability: its root lives while
 * anything else holds it (a function of a live context), plus the {@value #RECENT} most recently looked up, so
 * that a snippet sent again soon finds its functions' roots. Keys that are not code units (GraalPy caches
 * built-in roots there too) stay as they are.
 */
final class CodeRootCache extends ConcurrentHashMap<Object, Object> {
    /** How many recently looked-up code units compiled from source keep their roots though nothing else holds them. */
    static final int RECENT = 1024;
    private static final String CODE_UNIT = "com.oracle.graal.python.nodes.bytecode_dsl.BytecodeDSLCodeUnit";
    private static final String LANGUAGE = "com.oracle.graal.python.PythonLanguage";
    private static final String FIELD = "runtimeCachedRootNodes";
    /** The code unit's maker of roots, which says where it came from. */
    private static final String SUPPLIER = "supplier";
    /** The makers of roots of code read from bytecode files ({@code marshal}), which GraalPy shares between contexts. */
    private static final String FROM_BYTECODE_FILES = "com.oracle.graal.python.builtins.modules.MarshalModuleBuiltins";

    /** {@code BytecodeDSLCodeUnit.supplier}. */
    private final Field supplier;

    /** Code unit to its root, neither held: a code unit's root refers to the code unit, so only both weak can go. */
    private final Map<Object, WeakReference<Object>> roots = new WeakHashMap<>();
    private final Map<Object, Object> recent = new LinkedHashMap<>(RECENT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Object> eldest) {
            return size() > RECENT;
        }
    };

    /** What {@link #install} did. */
    sealed interface Outcome {
        /** The map was replaced by {@code cache}; {@code moved} entries of code compiled from source were taken over. */
        record Installed(CodeRootCache cache, int moved) implements Outcome {
        }

        /** This GraalPy has no such map (25.0 has none): nothing to do. */
        record Absent() implements Outcome {
        }

        /** The map is there but could not be replaced: the worker's heap grows with every function defined. */
        record Failed(String reason) implements Outcome {
        }
    }

    /**
     * Replaces the language's map in the engine of {@code context} (any context of the engine: the map belongs to
     * the language instance, which its contexts share). Call before other threads use the engine.
     */
    static Outcome install(Context context) {
        context.initialize("python"); // the language instance exists once a context has started Python
        context.enter();
        try {
            Class<?> language = Class.forName(LANGUAGE);
            Object instance = language.getMethod("get", Class.forName("com.oracle.truffle.api.nodes.Node"))
                    .invoke(null, (Object) null);
            Field field = language.getDeclaredField(FIELD);
            field.setAccessible(true);
            if (!(field.get(instance) instanceof ConcurrentHashMap<?, ?> current)) {
                return new Outcome.Failed(FIELD + " is not a ConcurrentHashMap");
            }
            if (current instanceof CodeRootCache installed) {
                return new Outcome.Installed(installed, 0);
            }
            Field supplier = Class.forName(CODE_UNIT).getDeclaredField(SUPPLIER);
            supplier.setAccessible(true);
            CodeRootCache replacement = new CodeRootCache(supplier);
            int moved = replacement.takeOver(current);
            field.set(instance, replacement);
            return new Outcome.Installed(replacement, moved);
        } catch (NoSuchFieldException e) {
            return new Outcome.Absent();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new Outcome.Failed(e.toString());
        } finally {
            context.leave();
        }
    }

    private CodeRootCache(Field supplier) {
        this.supplier = supplier;
    }

    private int takeOver(Map<?, ?> current) {
        int moved = 0;
        for (Map.Entry<?, ?> entry : current.entrySet()) {
            Object unit = compiledFromSource(entry.getKey());
            if (unit != null) {
                synchronized (roots) {
                    roots.put(unit, new WeakReference<>(entry.getValue()));
                    recent.put(unit, entry.getValue());
                }
                moved++;
            } else {
                super.put(entry.getKey(), entry.getValue());
            }
        }
        return moved;
    }

    /**
     * The code unit the key names if it is code compiled from source in this engine, else null (code read from a
     * bytecode file, or a key that is no code unit). GraalPy passes a code unit as a list of one (its keys are
     * lists of whatever identifies a root); the code unit itself, which the root refers to, is what this holds
     * weakly.
     */
    private Object compiledFromSource(Object key) {
        Object unit = key instanceof List<?> list && list.size() == 1 ? list.get(0) : key;
        if (unit == null || !unit.getClass().getName().equals(CODE_UNIT)) {
            return null;
        }
        try {
            Object maker = supplier.get(unit);
            return maker != null && !maker.getClass().getName().startsWith(FROM_BYTECODE_FILES) ? unit : null;
        } catch (IllegalAccessException e) {
            return null; // kept, as GraalPy keeps it
        }
    }

    /** GraalPy's only use of the map: the root for a key, made by {@code create} when there is none. */
    @Override
    public Object computeIfAbsent(Object key, Function<? super Object, ?> create) {
        Object unit = compiledFromSource(key);
        if (unit == null) {
            return super.computeIfAbsent(key, create);
        }
        synchronized (roots) {
            WeakReference<Object> held = roots.get(unit);
            Object root = held == null ? null : held.get();
            if (root == null) {
                root = create.apply(key);
                roots.put(unit, new WeakReference<>(root));
            }
            recent.put(unit, root);
            return root;
        }
    }

    /** How many code units compiled from source have a root now, live or not yet collected (for tests). */
    int compiledFromSource() {
        synchronized (roots) {
            return roots.size();
        }
    }
}
