package dev.pysandbox.mcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The path rules of {@code run_python}: a script or working directory must lie under the run root after
 * {@code ..} and symlinks are resolved, and a script must be an existing regular {@code .py} file.
 * Lexical checks alone would let a symlink inside the root point anywhere, so existing paths are also
 * checked by their real path.
 */
final class ScriptLocator {
    static final String OUTSIDE_ROOT = "path must be under the run directory.";
    static final String NOT_A_SCRIPT = "script file not found or not a .py file.";
    static final String NOT_A_DIRECTORY = "workingDirectory not found or not a directory.";

    /** A path the rules refuse; the message is the text after {@code Error: }. */
    static final class Refusal extends Exception {
        Refusal(String message) {
            super(message);
        }
    }

    /** A script that passed the rules, and the name tracebacks show for it (relative, so no host path leaks). */
    record Script(Path file, String displayName) {
    }

    private final Path root;

    ScriptLocator(Path root) throws IOException {
        this.root = root.toRealPath();
    }

    /** The run root, as its real path. */
    Path root() {
        return root;
    }

    Script locate(String scriptPath, String workingDirectory) throws Refusal {
        Path base = workingDirectory == null ? root : directory(workingDirectory);
        Path file = underRoot(resolve(base, scriptPath, NOT_A_SCRIPT));
        if (!Files.isRegularFile(file) || !file.getFileName().toString().endsWith(".py")) {
            throw new Refusal(NOT_A_SCRIPT);
        }
        return new Script(file, root.relativize(file).toString());
    }

    Path directory(String workingDirectory) throws Refusal {
        Path dir = underRoot(resolve(root, workingDirectory, NOT_A_DIRECTORY));
        if (!Files.isDirectory(dir)) {
            throw new Refusal(NOT_A_DIRECTORY);
        }
        return dir;
    }

    /** A path string the file system cannot represent (a NUL byte, say) names no file. */
    private static Path resolve(Path base, String path, String refusal) throws Refusal {
        try {
            return base.resolve(path);
        } catch (InvalidPathException e) {
            throw new Refusal(refusal);
        }
    }

    private Path underRoot(Path candidate) throws Refusal {
        Path lexical = candidate.toAbsolutePath().normalize();
        if (!lexical.startsWith(root)) {
            throw new Refusal(OUTSIDE_ROOT);
        }
        if (!Files.exists(lexical)) {
            return lexical;
        }
        try {
            Path real = lexical.toRealPath();
            if (!real.startsWith(root)) {
                throw new Refusal(OUTSIDE_ROOT);
            }
            return real;
        } catch (IOException e) {
            throw new Refusal(NOT_A_SCRIPT);
        }
    }
}
