package dev.pysandbox.worker;

import java.lang.management.ManagementFactory;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * How deep Python recursion reaches on a thread of a given stack size, and what the frames cost the heap
 * (BENCHMARKS.md, "Recursion depth"): GraalPy keeps Python frames on the Java stack, so the stack is the ceiling.
 * For each size, in two contexts of one engine (code run for the first time, then again): the deepest plain
 * recursion, the largest {@code lru_cache} fib, the deepest {@code deepcopy} nesting; and the heap after a full
 * collection at depth 1,000 and 3,000. Usage, one JVM a size for first-run numbers:
 * {@code RecursionDepthProbe MEGABYTES} (run with {@code -Dtruffle.UseFallbackRuntime=true}, as workers are).
 */
public final class RecursionDepthProbe {
    private static final String CODE = """
            import copy, functools
            def plain(n):
                try:
                    return plain(n + 1)
                except RecursionError:
                    return n
            @functools.lru_cache(maxsize=None)
            def fib(n):
                return n if n < 2 else fib(n - 1) + fib(n - 2)
            def largest(attempt, step):
                n = 0
                while n < 20_000:
                    try:
                        attempt(n + step)
                    except RecursionError:
                        return n
                    n += step
                return n
            def nested(n):
                data = []
                for _ in range(n):
                    data = [data]
                return copy.deepcopy(data)
            heap = {}
            def down(n, at):
                if n == at:
                    heap[at] = heap_now()
                    return n
                return down(n + 1, at)
            depth = plain(0)
            fib_n = largest(lambda n: (fib.cache_clear(), fib(n)), 100)
            nesting = largest(nested, 25)
            down(0, 1000) if depth > 1100 else None
            down(0, 3000) if depth > 3100 else None
            (depth, fib_n, nesting, heap.get(1000, 0), heap.get(3000, 0))
            """;

    private RecursionDepthProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        long megabytes = Long.parseLong(args[0]);
        try (Engine engine = Engine.newBuilder("python").option("engine.WarnInterpreterOnly", "false").build()) {
            for (String run : new String[] {"first", "again"}) {
                Thread thread = new Thread(null, () -> measure(engine, megabytes, run), "probe", megabytes << 20);
                thread.start();
                thread.join();
            }
        }
    }

    private static void measure(Engine engine, long megabytes, String run) {
        try (Context context = Context.newBuilder("python").engine(engine).allowIO(IOAccess.NONE).build()) {
            context.getBindings("python").putMember("heap_now", (ProxyExecutable) arguments -> heapAfterCollection());
            Value result = context.eval("python", CODE);
            long at1000 = result.getArrayElement(3).asLong();
            long at3000 = result.getArrayElement(4).asLong();
            System.out.printf("%d MB, %s: plain %d, lru_cache fib %d, deepcopy nesting %d, heap at depth 3,000 minus"
                    + " at 1,000: %s%n", megabytes, run, result.getArrayElement(0).asInt(), result.getArrayElement(1).asInt(),
                    result.getArrayElement(2).asInt(), at3000 == 0 ? "(not that deep)" : (at3000 - at1000) / 1024 + " KB");
        }
    }

    private static long heapAfterCollection() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
