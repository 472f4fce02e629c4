package dev.pysandbox.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A JDK AOT cache and a note of how it was trained. Training takes a minute and every {@code mvn package}
 * asks for it, so a cache is kept when it was trained the same way and none of its inputs (jars, scripts)
 * changed since.
 *
 * @param cache the cache file the JVM maps
 * @param note  beside it: the training's description, written only once the cache is complete
 */
public record TrainedCache(Path cache, Path note) {
    /** @param inputs files whose change makes the cache stale; a missing one or a folder does too */
    public boolean isCurrent(String trainedAs, List<Path> inputs) throws IOException {
        if (!Files.isRegularFile(cache) || !Files.isRegularFile(note) || !Files.readString(note).strip().equals(trainedAs)) {
            return false;
        }
        FileTime trained = Files.getLastModifiedTime(cache);
        for (Path input : inputs) {
            // A class folder (a build's target/classes) can change without its own time changing.
            if (!Files.isRegularFile(input) || Files.getLastModifiedTime(input).compareTo(trained) > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A jar and the libraries its manifest's Class-Path names: this build puts them all in {@code lib/}
     * beside it. The JVM checks every jar of the class path against the cache, so they are all inputs.
     */
    public static List<Path> jarAndLibraries(Path jar) throws IOException {
        List<Path> files = new ArrayList<>(List.of(jar));
        Path lib = jar.toAbsolutePath().resolveSibling("lib");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> jars = Files.list(lib)) {
                jars.filter(f -> f.toString().endsWith(".jar")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    /** Before training: a half-written cache must never look current. */
    public void forget() throws IOException {
        Files.deleteIfExists(note);
        Files.deleteIfExists(cache);
    }

    /** After training, once the cache is written. */
    public void remember(String trainedAs) throws IOException {
        Files.writeString(note, trainedAs + "\n");
    }
}
