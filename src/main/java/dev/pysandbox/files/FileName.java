package dev.pysandbox.files;

import java.nio.file.Path;

/**
 * The names {@code files} in may give: relative paths inside the working directory, made of plain segments.
 * Checked at the edge (so the caller hears which name is wrong) and again in the worker, which trusts no
 * name it did not check itself.
 */
public final class FileName {
    static final int MAX_LENGTH = 1024;
    static final int MAX_SEGMENT = 255;

    private FileName() {
    }

    /**
     * The guest path a name stands for, under {@link ScratchSpace#HOME}.
     *
     * @throws IllegalArgumentException saying what is wrong with the name: absolute, {@code ..} or {@code .}
     *                                  segments, empty segments, NUL, or too long
     */
    public static Path inWorkingDirectory(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("file name '' is empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("file name longer than " + MAX_LENGTH + " characters");
        }
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("file name '" + printable(name) + "' contains NUL");
        }
        if (name.startsWith("/")) {
            throw new IllegalArgumentException("file name '" + name + "' is absolute; give a path relative to the"
                    + " working directory");
        }
        Path path = ScratchSpace.HOME;
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("file name '" + name + "' must be plain names joined by '/',"
                        + " without '..', '.' or empty parts");
            }
            if (segment.length() > MAX_SEGMENT) {
                throw new IllegalArgumentException("file name '" + name + "' has a part longer than " + MAX_SEGMENT
                        + " characters");
            }
            path = path.resolve(segment);
        }
        return path;
    }

    private static String printable(String name) {
        return name.replace("\0", "\\0");
    }
}
