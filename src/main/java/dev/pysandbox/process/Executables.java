package dev.pysandbox.process;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds a program the way a shell does: the first executable file of that name in a {@code PATH}'s folders. */
public final class Executables {
    private Executables() {
    }

    /**
     * @param name the program's file name
     * @param path a {@code PATH} value (folders separated by {@link File#pathSeparator}); null finds nothing
     * @return the program's absolute, normalized path, or empty when no folder has it
     */
    public static Optional<Path> onPath(String name, String path) {
        for (String directory : path == null ? new String[0] : path.split(File.pathSeparator)) {
            if (directory.isBlank()) {
                continue;
            }
            Path candidate = Path.of(directory, name).toAbsolutePath().normalize();
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
