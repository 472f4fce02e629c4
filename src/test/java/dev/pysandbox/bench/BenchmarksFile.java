package dev.pysandbox.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The one way a benchmark writes BENCHMARKS.md: its section goes between its own markers,
 * {@code <!-- NAME:begin -->} and {@code <!-- NAME:end -->}, and nothing else in the file changes. The readings
 * around a section are written by hand, so anything doubtful is refused rather than guessed: markers missing,
 * repeated or out of order, more than one section between them, or one the new section does not replace (the
 * hand-written "Release" once sat inside bin/scale-test's markers, and the next scale run would have deleted
 * it). A refused file is left as it was; the writers print their section to stdout before writing, so the run
 * is not lost, and they check the markers before they start, so a long run is not spent in vain.
 */
final class BenchmarksFile {
    /** Why a section was not written. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private BenchmarksFile() {
    }

    /** Puts {@code section} between NAME's markers in {@code file}, or refuses and leaves the file untouched. */
    static void replaceSection(Path file, String name, String section) throws IOException, Refused {
        String text = Files.readString(file);
        String replaced = replaced(text, name, section, file);
        Files.writeString(file, replaced);
    }

    /** Refuses now what {@link #replaceSection} would refuse at the end, so a long run does not fail after it. */
    static void checkMarkers(Path file, String name) throws IOException, Refused {
        replaced(Files.readString(file), name, null, file);
    }

    /**
     * For a benchmark's main: writes the section, or says why not on stderr and ends the JVM with status 2 (the
     * benchmarks' MCP clients keep threads that would outlive main).
     */
    static void writeOrExit(Path file, String name, String section) {
        try {
            replaceSection(file, name, section);
        } catch (IOException | Refused e) {
            exit("BENCHMARKS.md not written: " + e.getMessage() + " (" + file + " is unchanged; the section is on"
                    + " stdout)");
        }
    }

    /** For a benchmark's main, before its run: the markers are right, or it ends the JVM with status 2. */
    static void checkOrExit(Path file, String name) {
        try {
            checkMarkers(file, name);
        } catch (IOException | Refused e) {
            exit("BENCHMARKS.md could not take this run's section, so the run did not start: " + e.getMessage());
        }
    }

    private static void exit(String why) {
        System.err.println(why);
        System.exit(2);
    }

    /** {@code text} with NAME's section replaced by {@code section}; with a null section, only the checks. */
    static String replaced(String text, String name, String section, Path file) throws Refused {
        String begin = "<!-- " + name + ":begin -->";
        String end = "<!-- " + name + ":end -->";
        int b = only(text, begin, file);
        int e = only(text, end, file);
        if (e < b) {
            throw new Refused(file + " has " + end + " before " + begin);
        }
        List<String> between = headings(text.substring(b + begin.length(), e));
        if (between.size() > 1) {
            throw new Refused("between " + begin + " and " + end + " of " + file + " stand " + between.size()
                    + " sections, " + between + ", where a benchmark writes one: move the others out of the markers");
        }
        if (section == null) {
            return text;
        }
        if (!between.isEmpty() && !headings(section).contains(between.get(0))) {
            throw new Refused("between " + begin + " and " + end + " of " + file + " stands '" + between.get(0)
                    + "', which this run does not write: move it out of the markers if it is not this benchmark's"
                    + " (or delete the old section by hand if the benchmark renamed it)");
        }
        return text.substring(0, b + begin.length()) + "\n" + section + text.substring(e);
    }

    private static int only(String text, String marker, Path file) throws Refused {
        int at = text.indexOf(marker);
        if (at < 0) {
            throw new Refused(file + " has no " + marker + " line: add the section's markers where it belongs");
        }
        if (text.indexOf(marker, at + marker.length()) >= 0) {
            throw new Refused(file + " has " + marker + " more than once");
        }
        return at;
    }

    private static List<String> headings(String markdown) {
        return markdown.lines().filter(line -> line.matches("#{1,6} .*")).toList();
    }
}
