package dev.pysandbox.files;

import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How long a name in the sandbox's file system may be, and the names {@code files} in may give.
 *
 * <p>One rule for both, as a Linux file system has it: a name (one part of a path) is at most
 * {@value #MAX_NAME_BYTES} bytes in UTF-8 and a whole path at most {@value #MAX_PATH_BYTES}. The context's file
 * system refuses a longer one with {@code ENAMETOOLONG} ({@link #tooLong(Path)}), and {@code files} with a
 * {@code setup_error} ({@link #inWorkingDirectory}), so that no name a call can list is longer.
 *
 * <p>{@code files} names are checked at the edge (so the caller hears which name is wrong) and again in the
 * worker, which trusts no name it did not check itself.
 */
public final class FileName {
    /** The longest name, one part of a path: Linux's NAME_MAX. */
    public static final int MAX_NAME_BYTES = 255;
    /** The longest path, from {@code /}: Linux's PATH_MAX. */
    public static final int MAX_PATH_BYTES = 4096;
    /**
     * The reason a too-long name is refused with. GraalPy gives the guest the errno whose message equals a
     * {@link FileSystemException}'s reason, so this text is what makes it {@code ENAMETOOLONG} (36).
     */
    static final String TOO_LONG = "File name too long";
    private static final String RULE = "a name is at most " + MAX_NAME_BYTES + " bytes in UTF-8 and a path, from /,"
            + " at most " + MAX_PATH_BYTES + " bytes, as on Linux";
    /** How much of a refused name an error message shows. */
    private static final int SHOWN = 64;

    private FileName() {
    }

    /**
     * What makes a path too long for the sandbox's file system, or empty when nothing does: a part over
     * {@value #MAX_NAME_BYTES} bytes, or the whole over {@value #MAX_PATH_BYTES}, in UTF-8.
     */
    static Optional<String> tooLong(Path path) {
        String text = path.toString();
        if (text.length() > MAX_PATH_BYTES || utf8Length(text) > MAX_PATH_BYTES) {
            return Optional.of("a path of " + utf8Length(text) + " bytes; " + RULE);
        }
        for (Path name : path) {
            int bytes = utf8Length(name.toString());
            if (bytes > MAX_NAME_BYTES) {
                return Optional.of("a name of " + bytes + " bytes; " + RULE);
            }
        }
        return Optional.empty();
    }

    /** The same rule as the file system's error, {@code ENAMETOOLONG} in the guest. */
    static void checkLength(Path path) throws FileSystemException {
        if (tooLong(path).isPresent()) {
            throw new FileSystemException(null, null, TOO_LONG);
        }
    }

    /**
     * The guest path a name stands for, under {@link ScratchSpace#HOME}.
     *
     * @throws IllegalArgumentException saying what is wrong with the name: absolute, {@code ..} or {@code .}
     *                                  segments, empty segments, NUL, or too long ({@link #tooLong})
     */
    public static Path inWorkingDirectory(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("file name '' is empty");
        }
        if (name.length() > MAX_PATH_BYTES) { // no need to look further, or to build a path of it
            throw refusedAsTooLong(name, "a path of " + (ScratchSpace.HOME.toString().length() + 1 + utf8Length(name))
                    + " bytes; " + RULE);
        }
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("file name '" + printable(name) + "' contains NUL");
        }
        if (name.startsWith("/")) {
            throw new IllegalArgumentException("file name '" + printable(name) + "' is absolute; give a path"
                    + " relative to the working directory");
        }
        Path path = ScratchSpace.HOME;
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("file name '" + printable(name) + "' must be plain names joined"
                        + " by '/', without '..', '.' or empty parts");
            }
            path = path.resolve(segment);
        }
        Optional<String> tooLong = tooLong(path);
        if (tooLong.isPresent()) {
            throw refusedAsTooLong(name, tooLong.get());
        }
        return path;
    }

    private static IllegalArgumentException refusedAsTooLong(String name, String reason) {
        return new IllegalArgumentException("file name '" + printable(name) + "' is too long (" + reason + ")");
    }

    /** Bytes of a string in UTF-8, without encoding it; an unpaired surrogate counts as three. */
    static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** A name as an error message shows it: NUL visible, and no more than its head when it is long. */
    private static String printable(String name) {
        String head = name.length() > SHOWN ? name.substring(0, SHOWN) + "…" : name;
        return head.replace("\0", "\\0");
    }
}
