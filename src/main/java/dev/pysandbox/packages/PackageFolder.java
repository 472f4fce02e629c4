package dev.pysandbox.packages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.regex.Pattern;

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

    /**
     * The top-level modules the generation in use provides: packages (folders with {@code __init__.py}) and
     * single-file modules, without pip's own bookkeeping ({@code *.dist-info}, {@code bin}).
     */
    public SortedSet<String> modules() {
        SortedSet<String> modules = new TreeSet<>();
        Optional<Path> generation = current();
        if (generation.isEmpty()) {
            return modules;
        }
        try (Stream<Path> entries = Files.list(generation.get())) {
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
        modules.removeIf(name -> !name.matches("[A-Za-z_][A-Za-z0-9_]*"));
        return modules;
    }
}
