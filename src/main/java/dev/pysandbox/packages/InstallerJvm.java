package dev.pysandbox.packages;

import java.nio.file.Path;
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
 * <p>On the interpreter-only workers' Java, with their AOT cache, when the build prepared them: an installer
 * runs GraalPy interpreter-only as those workers do and loads the same classes, so their cache serves it too.
 * Measured on the 2-core machine: one pip install of one wheel took 10 s and 14 core-seconds instead of 17 s
 * and 20, an uninstall 2 s instead of 5 (BENCHMARKS.md, "Installing packages").
 *
 * <p>An install's output is for the operator: pip's result and the import check. Truffle's native access, its
 * use of {@code sun.misc.Unsafe} and the interpreter-only engine each made the JVM warn on stderr, a dozen lines
 * about the JVM and nothing about the packages; the workers silence them the same way ({@code WorkerLauncher}).
 * Errors still reach stderr.
 *
 * @param java           the Java to start
 * @param runtimeOptions what goes with that Java (the interpreter-only workers' AOT cache), before the
 *                       installer's own options
 * @param classPath      the class path, as the AOT cache's fit was checked against it
 */
public record InstallerJvm(Path java, List<String> runtimeOptions, String classPath) {
    public InstallerJvm {
        runtimeOptions = List.copyOf(runtimeOptions);
    }

    /**
     * The command that runs {@code mainClass} in such a JVM.
     *
     * @param properties system properties for that JVM ({@code -DNAME=VALUE})
     */
    List<String> command(List<String> properties, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(runtimeOptions);
        // pip needs more heap than the server; one collector thread is enough for a single-threaded job.
        command.addAll(List.of("-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED", "-Dpolyglot.engine.WarnInterpreterOnly=false"));
        // An option JDK 21 does not know, and would not start with; a prepared runtime is JDK 25.
        if (!runtimeOptions.isEmpty() || Runtime.version().feature() >= 23) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.addAll(properties);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(args);
        return command;
    }
}
