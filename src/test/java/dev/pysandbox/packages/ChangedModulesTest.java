package dev.pysandbox.packages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which modules an install or uninstall must import-check again: what it changed, and what requires that. */
class ChangedModulesTest {
    private static final String CHECKER = "python-sandbox-mcp 0.1.0 on GraalPy 25.0.3";

    @TempDir
    Path root;

    @Test
    void aNewPackageAloneIsChecked() throws IOException {
        Path before = generation("gen-1", dist("tabulate", "0.9.0", List.of(), "tabulate/__init__.py"));
        Path after = generation("gen-2", dist("tabulate", "0.9.0", List.of(), "tabulate/__init__.py"),
                dist("jmespath", "1.0.1", List.of(), "jmespath/__init__.py"));
        assertEquals(Set.of("jmespath"), ChangedModules.between(Optional.of(before), after, CHECKER));
    }

    @Test
    void anUpgradedPackageAndEveryPackageThatRequiresItAreChecked() throws IOException {
        Dist six = dist("six", "1.16.0", List.of(), "six.py");
        Dist dateutil = dist("python-dateutil", "2.9.0", List.of("six (>=1.5)"), "dateutil/__init__.py");
        Dist arrowLike = dist("Arrow_Like", "1.0", List.of("python_dateutil>=2.7.0; extra == \"x\""), "arrow_like/__init__.py");
        Dist other = dist("tabulate", "0.9.0", List.of(), "tabulate/__init__.py");
        Path before = generation("gen-1", six, dateutil, arrowLike, other);
        Path after = generation("gen-2", dist("six", "1.17.0", List.of(), "six.py"), dateutil, arrowLike, other);
        assertEquals(Set.of("six", "dateutil", "arrow_like"), ChangedModules.between(Optional.of(before), after, CHECKER));
    }

    @Test
    void aReinstalledPackageWithTheSameFilesIsNotCheckedAgain() throws IOException {
        Dist same = dist("more-itertools", "10.5.0", List.of(), "more_itertools/__init__.py");
        Path before = generation("gen-1", same);
        Path after = generation("gen-2", same);
        assertEquals(Set.of(), ChangedModules.between(Optional.of(before), after, CHECKER));
    }

    @Test
    void removingAPackageChecksWhatRequiredIt() throws IOException {
        Dist six = dist("six", "1.16.0", List.of(), "six.py");
        Dist dateutil = dist("python-dateutil", "2.9.0", List.of("six>=1.5"), "dateutil/__init__.py");
        Dist other = dist("tabulate", "0.9.0", List.of(), "tabulate/__init__.py");
        Path before = generation("gen-1", six, dateutil, other);
        Path after = generation("gen-2", dateutil, other);
        assertEquals(Set.of("dateutil"), ChangedModules.between(Optional.of(before), after, CHECKER));
    }

    @Test
    void aModuleNoPackageClaimsIsAlwaysChecked() throws IOException {
        Dist other = dist("tabulate", "0.9.0", List.of(), "tabulate/__init__.py");
        Path before = generation("gen-1", other);
        Path after = generation("gen-2", other);
        Files.writeString(after.resolve("stray.py"), "x = 1\n");
        assertEquals(Set.of("stray"), ChangedModules.between(Optional.of(before), after, CHECKER));
    }

    @Test
    void everythingIsCheckedWhenTheLastCheckWasAnotherSandboxsOrNone() throws IOException {
        Dist other = dist("tabulate", "0.9.0", List.of(), "tabulate/__init__.py");
        Dist added = dist("jmespath", "1.0.1", List.of(), "jmespath/__init__.py");
        Path before = generation("gen-1", other);
        Path after = generation("gen-2", other, added);
        assertEquals(Set.of("jmespath", "tabulate"),
                ChangedModules.between(Optional.of(before), after, "python-sandbox-mcp 0.2.0 on GraalPy 25.0.3"));
        Files.delete(before.resolve(ChangedModules.STAMP));
        assertEquals(Set.of("jmespath", "tabulate"), ChangedModules.between(Optional.of(before), after, CHECKER));
        assertEquals(Set.of("jmespath", "tabulate"), ChangedModules.between(Optional.empty(), after, CHECKER));
    }

    /** A distribution as pip installs it: top-level files, and its dist-info with METADATA and RECORD. */
    private record Dist(String name, String version, List<String> requires, List<String> files) {
    }

    private static Dist dist(String name, String version, List<String> requires, String... files) {
        return new Dist(name, version, requires, List.of(files));
    }

    /** A generation holding {@code dists}, stamped as checked whole by {@link #CHECKER}. */
    private Path generation(String name, Dist... dists) throws IOException {
        Path generation = Files.createDirectories(root.resolve(name));
        for (Dist dist : dists) {
            Path info = Files.createDirectories(generation.resolve(dist.name().replace('-', '_') + "-" + dist.version()
                    + ".dist-info"));
            StringBuilder metadata = new StringBuilder("Metadata-Version: 2.1\nName: " + dist.name() + "\nVersion: "
                    + dist.version() + "\n");
            dist.requires().forEach(r -> metadata.append("Requires-Dist: ").append(r).append('\n'));
            Files.writeString(info.resolve("METADATA"), metadata);
            StringBuilder record = new StringBuilder();
            for (String file : dist.files()) {
                Path path = generation.resolve(file);
                Files.createDirectories(path.getParent());
                Files.writeString(path, "# " + dist.name() + " " + dist.version() + "\n");
                record.append(file).append(",sha256=").append(dist.version()).append(",10\n");
            }
            record.append(info.getFileName()).append("/RECORD,,\n");
            Files.writeString(info.resolve("RECORD"), record);
        }
        ChangedModules.stamp(generation, CHECKER);
        return generation;
    }
}
