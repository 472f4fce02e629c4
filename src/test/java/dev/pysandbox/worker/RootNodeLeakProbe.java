package dev.pysandbox.worker;

import java.lang.management.ManagementFactory;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.io.IOAccess;

/**
 * GraalPy's root node leak, reproduced with the polyglot API alone (BENCHMARKS.md, "Sessions that last"): one
 * shared engine, fresh contexts each defining and calling one function of new text, then closed. With
 * {@code plain} the heap after a full collection grows with every context; with {@code released} the same run
 * with {@link CodeRootCache} installed stays flat. Usage: {@code RootNodeLeakProbe plain|released [contexts]}.
 */
public final class RootNodeLeakProbe {
    private RootNodeLeakProbe() {
    }

    public static void main(String[] args) {
        boolean released = args[0].equals("released");
        int contexts = args.length > 1 ? Integer.parseInt(args[1]) : 4000;
        StringBuilder line = new StringBuilder(args[0] + ": heap after a full collection, MB, every 500 contexts:");
        try (Engine engine = Engine.newBuilder("python").option("engine.WarnInterpreterOnly", "false").build()) {
            for (int i = 0; i < contexts; i++) {
                try (Context context = Context.newBuilder("python").engine(engine).allowIO(IOAccess.NONE).build()) {
                    if (i == 0 && released) {
                        CodeRootCache.Outcome outcome = CodeRootCache.install(context);
                        if (!(outcome instanceof CodeRootCache.Outcome.Installed)) {
                            throw new IllegalStateException("CodeRootCache could not be installed: " + outcome);
                        }
                    }
                    context.eval("python", "def f_" + i + "(x):\n    return [x * " + i + " for _ in range(2)]\nf_" + i + "(1)");
                }
                if (i % 500 == 0 || i == contexts - 1) {
                    System.gc();
                    System.gc();
                    line.append(' ').append(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20);
                }
            }
        }
        System.out.println(line);
    }
}
