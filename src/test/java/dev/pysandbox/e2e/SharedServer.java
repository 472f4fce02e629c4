package dev.pysandbox.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One server for every end-to-end test that needs nothing special, with the suite's settings (its workers C1 only:
 * SandboxServer, startOnTheShippedWorkerJvm) and a short warm-up, which its first calls meet: starting a server and
 * its workers costs seconds, so the suite pays for it once. Its run root holds the files the run_python tests use,
 * including a symlink that points out of the root.
 */
final class SharedServer {
    static final Path RUN_ROOT = SandboxServer.PROJECT_ROOT.resolve("target/it-run-root");
    static final Path OUTSIDE = SandboxServer.PROJECT_ROOT.resolve("target/it-outside-root");

    private static SandboxServer server;

    private SharedServer() {
    }

    static synchronized SandboxServer get() {
        if (server == null) {
            prepareRunRoot();
            server = SandboxServer.start(Map.of(), "--workers=2",
                    "--run-python.root=" + RUN_ROOT, SandboxServer.SHORT_WARM_UP);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        }
        return server;
    }

    private static void prepareRunRoot() {
        try {
            Files.createDirectories(RUN_ROOT.resolve("scripts"));
            Files.createDirectories(OUTSIDE);
            Files.writeString(RUN_ROOT.resolve("scripts/hello.py"), "import sys\nprint('hello from a script')\nprint('warned', file=sys.stderr)\n");
            Files.writeString(RUN_ROOT.resolve("scripts/fails.py"), "def broken():\n    return {}['missing']\n\nbroken()\n");
            Files.writeString(RUN_ROOT.resolve("scripts/notes.txt"), "print('not python')\n");
            Files.writeString(OUTSIDE.resolve("secret.py"), "print('SECRET OUTSIDE THE ROOT')\n");
            Path link = RUN_ROOT.resolve("scripts/escape.py");
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, OUTSIDE.resolve("secret.py"));
            Path dirLink = RUN_ROOT.resolve("outside-dir");
            Files.deleteIfExists(dirLink);
            Files.createSymbolicLink(dirLink, OUTSIDE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
