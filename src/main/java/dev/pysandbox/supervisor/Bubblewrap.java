package dev.pysandbox.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.pysandbox.process.Executables;

/**
 * One {@code bwrap} this server could run, and where the candidates are: the one the build bundles beside the
 * server's jar first ({@code target/bwrap/} in a checkout, {@code lib/bwrap/} in a release; see
 * {@code bin/lib/bwrap.sh}), then the first on {@code PATH}. The bundled one comes first because it is the one
 * the tests ran (Debian 12's); the one on {@code PATH} is for machines where it cannot run (a glibc older than
 * 2.34) or cannot make namespaces where the system's can (a setuid {@code bwrap}).
 *
 * @param command what starts it, before bwrap's own options
 * @param binary  the executable, for the log
 * @param bundled whether it is the build's
 */
record Bubblewrap(List<String> command, Path binary, boolean bundled) {
    /** The folder beside the server's jar that {@code bin/lib/bwrap.sh} lays out. */
    static final String BUNDLE = "bwrap";

    Bubblewrap {
        command = List.copyOf(command);
    }

    /**
     * The candidates, in the order they are tried: {@code home/bwrap/bwrap}, then each {@code PATH} directory's
     * {@code bwrap} (the first only; and not the bundled one again).
     *
     * @param home the folder of the server's jar ({@code Release.home()})
     * @param path the {@code PATH} to search, as the environment gives it (may be null)
     */
    static List<Bubblewrap> candidates(Path home, String path) {
        List<Bubblewrap> found = new ArrayList<>();
        Path bundle = home.resolve(BUNDLE).toAbsolutePath().normalize();
        Path bundled = bundle.resolve("bwrap");
        if (Files.isRegularFile(bundled) && Files.isExecutable(bundled)) {
            // Its libraries are Debian 12's (bin/lib/bwrap.sh says why they come along). bwrap passes its
            // environment on to the worker, which must not inherit the library path: --unsetenv takes it off.
            found.add(new Bubblewrap(List.of("env", "LD_LIBRARY_PATH=" + bundle.resolve("lib"), bundled.toString(),
                    "--unsetenv", "LD_LIBRARY_PATH"), bundled, true));
        }
        Executables.onPath("bwrap", path).filter(onPath -> !sameFile(onPath, bundled))
                .ifPresent(onPath -> found.add(new Bubblewrap(List.of(onPath.toString()), onPath, false)));
        return found;
    }

    /** For the log: where it is and whether it is the build's. */
    String describe() {
        return binary + (bundled ? " (bundled)" : " (from PATH)");
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }
}
