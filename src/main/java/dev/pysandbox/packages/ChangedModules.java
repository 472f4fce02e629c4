package dev.pysandbox.packages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which modules of a new generation an install or uninstall can have changed the import of, so that the import
 * check runs on those and not on every package already there (it costs about a second a package: BENCHMARKS.md,
 * "Installing packages"). Changed are the modules of every distribution that is new or whose files differ (pip's
 * {@code RECORD}, which hashes each file), and of every distribution that requires one of those, or one that was
 * removed, directly or through others. Modules no distribution claims are always changed; so is every module
 * when the previous generation was checked by another sandbox (a stamp the check leaves, see {@link #stamp}).
 */
final class ChangedModules {
    /** Written into a generation whose modules all passed the import check: by what, in {@link #stamp}'s words. */
    static final String STAMP = ".pysandbox-import-check";
    private static final Pattern REQUIREMENT = Pattern.compile("^Requires-Dist:\\s*([A-Za-z0-9][A-Za-z0-9._-]*)",
            Pattern.MULTILINE);

    private ChangedModules() {
    }

    /** A distribution as pip left it: its name (PEP 503 form), files, requirements and top-level modules. */
    private record Distribution(String name, String files, Set<String> requires, Set<String> modules) {
    }

    /**
     * The modules of {@code generation} to check, given the generation it was made from.
     *
     * @param checkedBy what checks this generation ({@link #stamp}); the previous one's stamp must say the same
     */
    static SortedSet<String> between(Optional<Path> previous, Path generation, String checkedBy) throws IOException {
        SortedSet<String> all = PackageFolder.modulesIn(generation);
        if (previous.isEmpty() || !checkedBy.equals(stampOf(previous.get()))) {
            return all;
        }
        Map<String, Distribution> before = distributions(previous.get());
        Map<String, Distribution> after = distributions(generation);
        Set<String> changed = new HashSet<>();
        after.forEach((name, distribution) -> {
            Distribution old = before.get(name);
            if (old == null || !old.files().equals(distribution.files())) {
                changed.add(name);
            }
        });
        before.keySet().stream().filter(name -> !after.containsKey(name)).forEach(changed::add);
        Set<String> affected = withDependents(changed, after.values());

        Set<String> untouched = new HashSet<>();
        Set<String> touched = new HashSet<>();
        after.values().forEach(d -> (affected.contains(d.name()) ? touched : untouched).addAll(d.modules()));
        untouched.removeAll(touched);
        SortedSet<String> check = new TreeSet<>(all);
        check.removeAll(untouched);
        return check;
    }

    /** Marks {@code generation} as checked whole by {@code checkedBy}. */
    static void stamp(Path generation, String checkedBy) throws IOException {
        Files.writeString(generation.resolve(STAMP), checkedBy + "\n", StandardCharsets.UTF_8);
    }

    private static String stampOf(Path generation) {
        try {
            return Files.readString(generation.resolve(STAMP), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return ""; // never checked whole by this kind of check: check everything
        }
    }

    /** {@code changed} and every distribution that requires one of them, directly or through others. */
    private static Set<String> withDependents(Set<String> changed, Collection<Distribution> distributions) {
        Set<String> affected = new HashSet<>(changed);
        Deque<String> pending = new ArrayDeque<>(changed);
        while (!pending.isEmpty()) {
            String name = pending.pop();
            for (Distribution d : distributions) {
                if (d.requires().contains(name) && affected.add(d.name())) {
                    pending.push(d.name());
                }
            }
        }
        return affected;
    }

    private static Map<String, Distribution> distributions(Path generation) throws IOException {
        Map<String, Distribution> distributions = new HashMap<>();
        try (Stream<Path> entries = Files.list(generation)) {
            for (Path info : (Iterable<Path>) entries::iterator) {
                String folder = info.getFileName().toString();
                if (folder.endsWith(".dist-info") && Files.isDirectory(info)) {
                    Distribution d = distribution(info, PackageFolder.distributionOf(folder));
                    distributions.put(d.name(), d);
                }
            }
        }
        return distributions;
    }

    private static Distribution distribution(Path info, String distribution) throws IOException {
        String metadata = readIfThere(info.resolve("METADATA"));
        String files = readIfThere(info.resolve("RECORD"));
        Set<String> requires = new HashSet<>();
        Matcher requirement = REQUIREMENT.matcher(metadata);
        while (requirement.find()) {
            // Markers and extras are left aside: a requirement read too widely means more checks, never fewer.
            requires.add(PackageFolder.distributionName(requirement.group(1)));
        }
        Set<String> modules = new HashSet<>();
        for (String line : files.lines().toList()) {
            List<String> parts = List.of(line.split(",", 2)[0].split("/"));
            String top = parts.get(0);
            if (parts.size() > 1) {
                modules.add(top);
            } else if (top.endsWith(".py")) {
                modules.add(top.substring(0, top.length() - 3));
            }
        }
        return new Distribution(distribution, files, requires, modules);
    }

    private static String readIfThere(Path file) throws IOException {
        return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
