package dev.pysandbox.packages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.regex.Pattern;

import dev.pysandbox.files.FolderTrees;

/**
 * The operator's package folder ({@code packages.dir}): generations {@code gen-1/}, {@code gen-2/}, … of
 * installed pure-Python packages, and a file {@code current} naming the one in use. An install writes a new
 * generation and then replaces {@code current} in one rename, so a worker building a context sees either the
 * old set or the new one, never half of either, and picks up the new one without a restart.
 */
public final class PackageFolder {
    static final String CURRENT = "current";
    private static final Pattern GENERATION = Pattern.compile("gen-[0-9]{1,9}");

    private final Path root;

    public PackageFolder(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    /**
     * The generation in use, or empty when nothing is installed. A {@code current} that names anything but
     * a generation folder of this one (a path, {@code ..}) counts as nothing installed.
     */
    public Optional<Path> current() {
        String name;
        try {
            name = Files.readString(root.resolve(CURRENT), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return Optional.empty(); // no current file: nothing installed yet
        }
        if (!GENERATION.matcher(name).matches()) {
            return Optional.empty();
        }
        Path generation = root.resolve(name);
        return Files.isDirectory(generation) ? Optional.of(generation) : Optional.empty();
    }

    /** The top-level modules the generation in use provides (see {@link #modulesIn}). */
    public SortedSet<String> modules() {
        return current().map(PackageFolder::modulesIn).orElseGet(TreeSet::new);
    }

    /**
     * The top-level modules a generation provides: packages (folders with {@code __init__.py}) and single-file
     * modules, without pip's own bookkeeping ({@code *.dist-info}, {@code bin}) and without private ones
     * ({@code _yaml}, PyYAML's shim for its C extension, which cannot import here and is not for code to import).
     */
    public static SortedSet<String> modulesIn(Path generation) {
        SortedSet<String> modules = new TreeSet<>();
        try (Stream<Path> entries = Files.list(generation)) {
            entries.forEach(entry -> {
                String name = entry.getFileName().toString();
                if (Files.isRegularFile(entry.resolve("__init__.py"))) {
                    modules.add(name);
                } else if (name.endsWith(".py") && Files.isRegularFile(entry)) {
                    modules.add(name.substring(0, name.length() - 3));
                }
            });
        } catch (IOException e) {
            // Removed while being read: report what was seen.
        }
        modules.removeIf(name -> !name.matches("[A-Za-z][A-Za-z0-9_]*"));
        return modules;
    }

    /** The distributions a generation holds, as {@code name version}, from pip's {@code *.dist-info} folders. */
    public static SortedSet<String> distributionsIn(Path generation) {
        SortedSet<String> distributions = new TreeSet<>();
        try (Stream<Path> entries = Files.list(generation)) {
            entries.map(entry -> entry.getFileName().toString())
                    .filter(name -> name.endsWith(".dist-info"))
                    .map(name -> name.substring(0, name.length() - ".dist-info".length()).replaceFirst("-", " "))
                    .forEach(distributions::add);
        } catch (IOException e) {
            // Removed while being read: report what was seen.
        }
        return distributions;
    }

    /** A distribution's name in the form names compare in (PEP 503): lower-case, runs of {@code -_.} as one {@code -}. */
    static String distributionName(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[-_.]+", "-");
    }

    /** The distribution a pip {@code NAME-VERSION.dist-info} folder is for, as {@link #distributionName} gives it. */
    static String distributionOf(String distInfoFolder) {
        return distributionName(distInfoFolder.split("-", 2)[0]);
    }

    /** A new, empty generation folder, numbered after every one there is. */
    public Path newGeneration() throws IOException {
        Files.createDirectories(root);
        int highest = 0;
        try (Stream<Path> entries = Files.list(root)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                String name = entry.getFileName().toString();
                if (GENERATION.matcher(name).matches()) {
                    highest = Math.max(highest, Integer.parseInt(name.substring(4)));
                }
            }
        }
        return Files.createDirectory(root.resolve("gen-" + (highest + 1)));
    }

    /** Makes {@code generation} the one in use, in one rename: a reader sees the old name or the new one. */
    public void switchTo(Path generation) throws IOException {
        Path next = root.resolve(CURRENT + ".next");
        Files.writeString(next, generation.getFileName() + "\n", StandardCharsets.UTF_8);
        Files.move(next, root.resolve(CURRENT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Deletes every generation but the one in use and {@code previous}: a worker may still be building a
     * context on the previous one, and contexts built on older ones were all replaced at the last switch.
     */
    public void prune(Optional<Path> previous) throws IOException {
        Optional<Path> current = current();
        try (Stream<Path> entries = Files.list(root)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                boolean generation = GENERATION.matcher(entry.getFileName().toString()).matches();
                if (generation && !entry.equals(current.orElse(null)) && !entry.equals(previous.orElse(null))) {
                    FolderTrees.delete(entry);
                }
            }
        }
    }
}
