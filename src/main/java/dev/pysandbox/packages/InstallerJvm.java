package dev.pysandbox.packages;

import java.util.ArrayList;
import java.util.List;

/**
 * How the installer's JVMs start: the one that runs {@code install} for auto-install, and the one that runs
 * GraalPy's pip. {@code bin/python-sandbox-mcp install} starts its own JVM with the same options.
 *
 * <p>The client compiler only ({@code TieredStopAtLevel=1}): an install is a minute of one-off Python on
 * GraalPy's interpreter, and the optimizing compiler spent that minute compiling the interpreter for a peak it
 * never reached. With it off, pip started in 19 s instead of 29 s and an install of the common profile took
 * 91 s instead of 130 s on the 2-core machine (BENCHMARKS.md, "Installing packages"). Workers keep the
 * optimizing compiler: they live for hours.
 *
 * <p>An install's output is for the operator: pip's result and the import check. Truffle's native access, its
 * use of {@code sun.misc.Unsafe} and the interpreter-only engine each made the JVM warn on stderr, a dozen lines
 * about the JVM and nothing about the packages; the workers silence them the same way ({@code WorkerLauncher}).
 * Errors still reach stderr.
 */
final class InstallerJvm {
    private InstallerJvm() {
    }

    /** The options of an installer JVM started on the Java this one runs on. */
    static List<String> options() {
        // pip needs more heap than the server; one collector thread is enough for a single-threaded job.
        List<String> options = new ArrayList<>(List.of("-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED", "-Dpolyglot.engine.WarnInterpreterOnly=false"));
        if (Runtime.version().feature() >= 23) { // an option JDK 21 does not know, and would not start with
            options.add("--sun-misc-unsafe-memory-access=allow");
        }
        return options;
    }
}
