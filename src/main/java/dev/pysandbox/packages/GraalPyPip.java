package dev.pysandbox.packages;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;

/**
 * GraalPy's own pip (the wheel its standard library bundles for {@code ensurepip}), run in a trusted
 * GraalPy context of this JVM. This is the operator's command, outside any sandbox: no system Python is
 * needed, and pip picks wheels for the GraalPy that will import them.
 *
 * <p>GraalPy's pip reads {@code ~/.config/pip-graalpy/pip.conf}, not the {@code pip.conf} a user has, so
 * unless {@code PIP_CONFIG_FILE} is set, the user's own pip configuration is handed to it: a corporate mirror
 * or a local index set up for pip then works here too. It also fetches a patch index from GitHub unless told
 * not to; the patches it bundles are used instead unless {@code PIP_GRAALPY_PATCHES_URL} says otherwise.
 */
final class GraalPyPip {
    private static final String RUN_PIP = """
            def run_pip(args):
                import os, sys, glob, ensurepip
                wheel = glob.glob(os.path.join(os.path.dirname(ensurepip.__file__), '_bundled', 'pip-*.whl'))[0]
                sys.path.insert(0, wheel)
                from pip._internal.cli.main import main
                return main(list(args)) or 0
            run_pip
            """;

    /**
     * Runs {@code pip ARGS} in a JVM of its own and returns its exit code and the end of what it printed (the
     * installer reads why a run failed from it); pip reports on this process's stderr as it goes. A JVM of
     * its own, because pip loads GraalPy's native modules (termios), which only one context per process may
     * do, and one install may run pip several times.
     */
    CPythonWheels.PipRun run(List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx1g", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), GraalPyPip.class.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        for (String setting : defaults()) {
            int eq = setting.indexOf('=');
            builder.environment().putIfAbsent(setting.substring(0, eq), setting.substring(eq + 1));
        }
        Process process = builder.start();
        process.getOutputStream().close();
        StringBuilder tail = new StringBuilder();
        try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                System.err.println(line);
                tail.append(line).append('\n');
                if (tail.length() > 128 * 1024) {
                    tail.delete(0, tail.length() - 64 * 1024);
                }
            }
        }
        try {
            return new CPythonWheels.PipRun(process.waitFor(), tail.toString());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while pip ran", e);
        }
    }

    /** The child JVM: runs pip with the given arguments in a trusted GraalPy context, exits with pip's code. */
    public static void main(String[] args) {
        int exitCode;
        try (Context context = Context.newBuilder("python")
                .allowAllAccess(true)
                .allowIO(IOAccess.ALL)
                .option("engine.WarnInterpreterOnly", "false")
                .build()) {
            Value runPip = context.eval("python", RUN_PIP);
            exitCode = runPip.execute((Object) args).asInt();
        }
        System.exit(exitCode);
    }

    /** What pip gets ({@code NAME=VALUE}) unless the operator's environment already says it. */
    private static List<String> defaults() {
        List<String> defaults = new ArrayList<>(List.of("PIP_GRAALPY_PATCHES_URL=disabled",
                "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_ROOT_USER_ACTION=ignore"));
        userPipConfig().ifPresent(config -> defaults.add("PIP_CONFIG_FILE=" + config));
        return defaults;
    }

    private static Optional<Path> userPipConfig() {
        List<Path> candidates = new ArrayList<>();
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path home = Path.of(System.getProperty("user.home"));
        candidates.add((xdg == null || xdg.isBlank() ? home.resolve(".config") : Path.of(xdg)).resolve("pip/pip.conf"));
        candidates.add(home.resolve(".pip/pip.conf"));
        candidates.add(Path.of("/etc/pip.conf"));
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }
}
