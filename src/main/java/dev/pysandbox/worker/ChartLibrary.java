package dev.pysandbox.worker;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.pysandbox.bytecode.BytecodeFolder;
import dev.pysandbox.files.FolderTrees;

/**
 * The sandbox's own Python packages (its {@code matplotlib}, in {@code charts/} beside this class): unpacked from the
 * worker's jar into a folder named by their content, once per version on a machine, and compiled to bytecode there,
 * so that every context imports them from bytecode the engine shares instead of compiling them again
 * (BENCHMARKS.md, "Bytecode files"). Contexts show the folder read-only at {@code SandboxFileSystem.LIBRARY}.
 */
final class ChartLibrary {
    private static final String RESOURCES = "charts";

    private ChartLibrary() {
    }

    /**
     * The folder holding the packages, unpacked and compiled under {@code cacheRoot}; empty when they cannot be
     * (the worker then serves without them, and says why on stderr: {@code import matplotlib} fails as not installed).
     */
    static Optional<Path> prepare(Path cacheRoot, String graalPy) {
        try {
            Map<String, byte[]> files = read();
            Path folder = cacheRoot.resolve("python-library-" + digest(files));
            if (!Files.isDirectory(folder)) {
                Path temporary = Files.createTempDirectory(cacheRoot, "python-library-");
                for (Map.Entry<String, byte[]> file : files.entrySet()) {
                    Path target = temporary.resolve(file.getKey());
                    Files.createDirectories(target.getParent());
                    Files.write(target, file.getValue());
                }
                try {
                    Files.move(temporary, folder, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    // Another worker unpacked it at the same moment: its copy stands, ours goes.
                    FolderTrees.delete(temporary);
                    if (!Files.isDirectory(folder)) {
                        throw e;
                    }
                }
            }
            if (BytecodeFolder.ensure(folder, graalPy) instanceof BytecodeFolder.Outcome.Failed failed) {
                System.err.println("worker: the sandbox's Python packages run from source: " + failed.reason());
            }
            return Optional.of(folder);
        } catch (IOException | URISyntaxException | RuntimeException e) {
            System.err.println("worker: the sandbox's Python packages (matplotlib) are not available: " + e);
            return Optional.empty();
        }
    }

    /** Each file under {@code charts/}, by its path there, from the jar or from the classes folder of a build. */
    private static Map<String, byte[]> read() throws IOException, URISyntaxException {
        URL url = ChartLibrary.class.getResource(RESOURCES);
        if (url == null) {
            throw new IOException("no " + RESOURCES + "/ beside " + ChartLibrary.class.getName());
        }
        URI uri = url.toURI();
        if (uri.getScheme().equals("jar")) {
            try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                return readTree(jar.provider().getPath(uri));
            }
        }
        return readTree(Path.of(uri));
    }

    private static Map<String, byte[]> readTree(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : walk.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".py")).toList()) {
                files.put(root.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static String digest(Map<String, byte[]> files) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                sha.update(file.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                sha.update((byte) 0);
                sha.update(file.getValue());
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
