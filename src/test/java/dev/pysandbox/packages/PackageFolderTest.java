package dev.pysandbox.packages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The package folder's generations: which one is in use, switching, pruning, and what a generation holds. */
class PackageFolderTest {
    @TempDir
    Path root;

    @Test
    void nothingInstalledUntilAGenerationIsSwitchedIn() throws IOException {
        PackageFolder folder = new PackageFolder(root);
        assertEquals(Optional.empty(), folder.current());
        Path first = folder.newGeneration();
        assertEquals("gen-1", first.getFileName().toString());
        assertEquals(Optional.empty(), folder.current(), "a new generation is not in use until switched in");
        folder.switchTo(first);
        assertEquals(Optional.of(first), folder.current());
        assertEquals("gen-2", folder.newGeneration().getFileName().toString());
    }

    @Test
    void attackPointCurrentOutOfTheFolder() throws IOException {
        PackageFolder folder = new PackageFolder(root.resolve("packages"));
        Files.createDirectories(root.resolve("packages"));
        Files.createDirectories(root.resolve("elsewhere"));
        for (String planted : List.of("../elsewhere", "/etc", "gen-1/../../elsewhere", "gen-x")) {
            Files.writeString(root.resolve("packages/current"), planted);
            assertEquals(Optional.empty(), folder.current(), planted);
        }
    }

    @Test
    void pruningKeepsTheGenerationInUseAndThePreviousOne() throws IOException {
        PackageFolder folder = new PackageFolder(root);
        Path one = folder.newGeneration();
        Path two = folder.newGeneration();
        Path three = folder.newGeneration();
        folder.switchTo(three);
        folder.prune(Optional.of(two));
        assertFalse(Files.exists(one));
        assertTrue(Files.isDirectory(two));
        assertTrue(Files.isDirectory(three));
    }

    @Test
    void aGenerationsModulesAndDistributions() throws IOException {
        Path generation = Files.createDirectories(root.resolve("gen-1"));
        Files.createDirectories(generation.resolve("yaml"));
        Files.writeString(generation.resolve("yaml/__init__.py"), "");
        Files.writeString(generation.resolve("six.py"), "");
        Files.createDirectories(generation.resolve("PyYAML-6.0.3.dist-info"));
        Files.createDirectories(generation.resolve("bin"));
        Files.createDirectories(generation.resolve("not-a-module"));
        Files.writeString(generation.resolve("not-a-module/__init__.py"), "");
        assertEquals(Set.of("six", "yaml"), PackageFolder.modulesIn(generation));
        assertEquals(Set.of("PyYAML 6.0.3"), PackageFolder.distributionsIn(generation));
    }
}
