package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a trained AOT cache may be kept, and when the build must train it again. */
class TrainedCacheTest {
    @TempDir
    Path dir;
    private TrainedCache trained;
    private Path jar;

    @BeforeEach
    void trainOnce() throws IOException {
        jar = Files.writeString(dir.resolve("app.jar"), "jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(60)));
        trained = new TrainedCache(dir.resolve("x.aot"), dir.resolve("x.aot.trained-with"));
        Files.writeString(trained.cache(), "cache");
        trained.remember("java 25 -Xmx1g");
    }

    @Test
    void keptWhenTrainedTheSameWayAndNoInputChanged() throws IOException {
        assertTrue(trained.isCurrent("java 25 -Xmx1g", List.of(jar)));
    }

    @Test
    void trainedAnewForAnotherCommand() throws IOException {
        assertFalse(trained.isCurrent("java 25 -Xmx2g", List.of(jar)));
    }

    @Test
    void trainedAnewWhenAnInputIsNewerThanTheCache() throws IOException {
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60)));
        assertFalse(trained.isCurrent("java 25 -Xmx1g", List.of(jar)));
    }

    @Test
    void trainedAnewWhenAnInputIsMissingOrAFolder() throws IOException {
        assertFalse(trained.isCurrent("java 25 -Xmx1g", List.of(dir.resolve("gone.jar"))));
        assertFalse(trained.isCurrent("java 25 -Xmx1g", List.of(dir)), "a class folder can change unseen");
    }

    @Test
    void aJarsLibrariesAreInputsToo() throws IOException {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path library = Files.writeString(lib.resolve("mcp.jar"), "library");
        Files.writeString(lib.resolve("notes.txt"), "not a jar");
        org.junit.jupiter.api.Assertions.assertEquals(List.of(jar, library), TrainedCache.jarAndLibraries(jar));
        Files.setLastModifiedTime(library, FileTime.from(Instant.now().plusSeconds(60)));
        assertFalse(trained.isCurrent("java 25 -Xmx1g", TrainedCache.jarAndLibraries(jar)), "a library copied anew");
    }

    @Test
    void aCacheWithoutItsNoteIsNeverKept() throws IOException {
        trained.forget();
        Files.writeString(trained.cache(), "half-written by an interrupted training");
        assertFalse(trained.isCurrent("java 25 -Xmx1g", List.of(jar)));
    }
}
