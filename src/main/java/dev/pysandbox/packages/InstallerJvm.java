package dev.pysandbox.packages;

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
 */
final class InstallerJvm {
    /** pip needs more heap than the server; one collector thread is enough for a single-threaded job. */
    static final List<String> OPTIONS = List.of("-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private InstallerJvm() {
    }
}
