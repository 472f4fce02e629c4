package dev.pysandbox.packages;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;

import dev.pysandbox.host.UserDirectories;
import dev.pysandbox.wire.WireCodec;

/**
 * GraalPy's own pip (the wheel its standard library bundles for {@code ensurepip}), run in a trusted
 * GraalPy context of a JVM of its own. This is the operator's command, outside any sandbox: no system Python
 * is needed, and pip picks wheels for the GraalPy that will import them.
 *
 * <p>One JVM serves every pip command of an install, one after the other in the same context: starting
 * GraalPy and importing pip took 29 s of each command's 30 s on the 2-core machine, and an install of the
 * common profile runs pip three times (BENCHMARKS.md, "Installing packages"). A JVM apart from the
 * installer's, because pip loads GraalPy's native modules (termios), which only one context per process may
 * do.
 *
 * <p>GraalPy's pip reads {@code ~/.config/pip-graalpy/pip.conf}, not the {@code pip.conf} a user has, so
 * unless {@code PIP_CONFIG_FILE} is set, the user's own pip configuration is handed to it: a corporate mirror
 * or a local index set up for pip then works here too. It also fetches a patch index from GitHub unless told
 * not to; the patches it bundles are used instead unless {@code PIP_GRAALPY_PATCHES_URL} says otherwise.
 */
final class GraalPyPip implements AutoCloseable {
    /**
     * pip's wheel, unpacked once beside itself in the installer's GraalPy home, with bytecode files written as pip
     * imports its modules: imported from the wheel, pip's source was compiled again at every start of a pip JVM.
     * Measured on the 2-core machine, idle, on the workers' Java and AOT cache (2026-11-28): importing pip took
     * 7.1-7.4 s from the wheel and 3.6-4.4 s from the folder's bytecode files, and this class's JVM installing one
     * wheel used 15-19 core-seconds instead of 18-20 (BENCHMARKS.md, "Installing packages"). The folder is made under
     * another name and renamed into place, so an installer running at the same time sees it whole or not at
     * all; where the home cannot be written, pip runs from the wheel as before. That home is the pip JVM's own
     * (GraalPy's default resource cache), never the workers' cache, which their code may write to.
     */
    private static final String RUN_PIP = """
            def run_pip(args):
                import os, sys, glob, ensurepip, shutil, tempfile, zipfile
                wheel = glob.glob(os.path.join(os.path.dirname(ensurepip.__file__), '_bundled', 'pip-*.whl'))[0]
                folder = wheel[:-len('.whl')]
                if not os.path.isdir(folder):
                    try:
                        unpacking = tempfile.mkdtemp(prefix='.unpacking-', dir=os.path.dirname(wheel))
                        zipfile.ZipFile(wheel).extractall(unpacking)
                        try:
                            os.rename(unpacking, folder)
                        except OSError:  # another installer's folder is in place: use that one
                            shutil.rmtree(unpacking, ignore_errors=True)
                    except OSError:
                        pass
                if os.path.isdir(folder):
                    sys.dont_write_bytecode = False
                    source = folder
                else:
                    source = wheel
                if source not in sys.path:
                    sys.path.insert(0, source)
                from pip._internal.cli.main import main
                try:
                    return main(list(args)) or 0
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
            run_pip
            """;
    /** The child's system property naming the line it prints after each command, followed by the exit code. */
    private static final String DONE_PROPERTY = "pysandbox.pip.done";

    /** Where pip's messages go as they come; the installer's stderr. */
    private final PrintStream messages;
    private final InstallerJvm jvm;
    /** Each command's end line: unguessable, so nothing pip prints can pass for it. */
    private final String done = "pysandbox-pip-done-" + UUID.randomUUID() + " ";
    private Process child;
    private BufferedReader output;
    private OutputStream commands;

    GraalPyPip(PrintStream messages, InstallerJvm jvm) {
        this.messages = messages;
        this.jvm = jvm;
    }

    /**
     * Runs {@code pip ARGS} and returns its exit code and the end of what it printed (the installer reads why
     * a run failed from it); pip reports on {@link #messages} as it goes. The first command starts the JVM.
     */
    CPythonWheels.PipRun run(List<String> args) throws IOException {
        if (child == null) {
            start();
        }
        commands.write((WireCodec.encode(args) + "\n").getBytes(StandardCharsets.UTF_8));
        commands.flush();
        StringBuilder tail = new StringBuilder();
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            int end = line.indexOf(done); // not always at the start: pip's last message may lack its newline
            if (end >= 0) {
                if (end > 0) {
                    messages.println(line.substring(0, end));
                    tail.append(line, 0, end).append('\n');
                }
                return new CPythonWheels.PipRun(Integer.parseInt(line.substring(end + done.length()).strip()), tail.toString());
            }
            messages.println(line);
            tail.append(line).append('\n');
            if (tail.length() > 128 * 1024) {
                tail.delete(0, tail.length() - 64 * 1024);
            }
        }
        int exitCode = waitForExit();
        child = null;
        throw new IOException("GraalPy's pip stopped (exit code " + exitCode + ") before it finished; its messages are above");
    }

    private void start() throws IOException {
        List<String> command = jvm.command(List.of("-D" + DONE_PROPERTY + "=" + done), GraalPyPip.class.getName(), List.of());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        for (String setting : defaults()) {
            int eq = setting.indexOf('=');
            builder.environment().putIfAbsent(setting.substring(0, eq), setting.substring(eq + 1));
        }
        child = builder.start();
        output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        commands = child.getOutputStream();
    }

    /** Ends the JVM: it exits when its command stream closes. */
    @Override
    public void close() throws IOException {
        if (child == null) {
            return;
        }
        commands.close();
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            messages.println(line);
        }
        waitForExit();
        child = null;
    }

    private int waitForExit() throws IOException {
        try {
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
            return child.waitFor();
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while pip ran", e);
        }
    }

    /**
     * The child JVM: runs each command line it reads (a JSON array of pip's arguments) in one trusted GraalPy
     * context, and after each prints the end line with pip's exit code. Exits when its input ends.
     */
    public static void main(String[] args) throws IOException {
        String done = System.getProperty(DONE_PROPERTY);
        BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Context context = Context.newBuilder("python")
                .allowAllAccess(true)
                .allowIO(IOAccess.ALL)
                .in(InputStream.nullInputStream()) // the commands come on stdin; pip must not read them
                .option("engine.WarnInterpreterOnly", "false")
                // pip loads GraalPy's native _ctypes, and GraalPy announced its experimental C API in five lines
                // of Truffle log on every install: the operator's output is pip's result (InstallerJvm).
                .option("python.WarnExperimentalFeatures", "false")
                .build()) {
            Value runPip = context.eval("python", RUN_PIP);
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                List<?> pipArgs = WireCodec.decode(line, List.class);
                int exitCode;
                try {
                    exitCode = runPip.execute((Object) pipArgs.stream().map(String::valueOf).toArray(String[]::new)).asInt();
                } catch (PolyglotException e) {
                    System.out.println("pip failed: " + e.getMessage());
                    exitCode = 2; // pip's own code for an error it did not expect
                }
                System.out.println(done + exitCode);
                System.out.flush();
            }
        }
        System.exit(0);
    }

    /** What pip gets ({@code NAME=VALUE}) unless the operator's environment already says it. */
    private static List<String> defaults() {
        // legacy-certs: pip verifies with the certificates it bundles, as it did anyway after warning "Disabling
        // truststore because platform isn't supported" on GraalPy at every run.
        List<String> defaults = new ArrayList<>(List.of("PIP_GRAALPY_PATCHES_URL=disabled",
                "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_ROOT_USER_ACTION=ignore", "PIP_NO_INPUT=1",
                "PIP_USE_DEPRECATED=legacy-certs"));
        userPipConfig().ifPresent(config -> defaults.add("PIP_CONFIG_FILE=" + config));
        return defaults;
    }

    private static Optional<Path> userPipConfig() {
        List<Path> candidates = new ArrayList<>();
        UserDirectories user = UserDirectories.current();
        candidates.add(user.config().resolve("pip/pip.conf"));
        candidates.add(user.home().resolve(".pip/pip.conf"));
        candidates.add(Path.of("/etc/pip.conf"));
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }
}
