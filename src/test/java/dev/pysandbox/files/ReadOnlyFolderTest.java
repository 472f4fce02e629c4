package dev.pysandbox.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The package file system's confinement, one attack per test: GraalVM does not check a file system the
 * embedder supplies, so these rules are the whole boundary at this layer.
 */
class ReadOnlyFolderTest {
    @TempDir
    Path temp;
    private Path secret;
    private ReadOnlyFolder fs;

    @BeforeEach
    void plant() throws IOException {
        Path folder = Files.createDirectories(temp.resolve("packages/gen-1"));
        Files.createDirectories(folder.resolve("tiny"));
        Files.writeString(folder.resolve("tiny/__init__.py"), "VALUE = 42\n");
        secret = Files.writeString(temp.resolve("secret.txt"), "host secret");
        Files.createSymbolicLink(folder.resolve("escape-link"), secret);
        Files.createSymbolicLink(folder.resolve("escape-dir"), temp);
        Files.createSymbolicLink(folder.resolve("inner-link.py"), folder.resolve("tiny/__init__.py"));
        fs = new ReadOnlyFolder(Path.of("/site-packages"), folder);
    }

    private String read(String guestPath) throws IOException {
        try (SeekableByteChannel channel = fs.newByteChannel(Path.of(guestPath), Set.of(StandardOpenOption.READ))) {
            ByteBuffer buffer = ByteBuffer.allocate(1024);
            channel.read(buffer);
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void packagesReadUnderTheMount() throws IOException {
        assertEquals("VALUE = 42\n", read("/site-packages/tiny/__init__.py"));
        assertEquals("VALUE = 42\n", read("/site-packages/inner-link.py"), "a symlink that stays inside is followed");
    }

    @Test
    void attackReadAHostFileByItsAbsolutePath() {
        assertThrows(AccessDeniedException.class, () -> read(secret.toString()));
        assertThrows(AccessDeniedException.class, () -> read("/etc/passwd"));
        assertThrows(AccessDeniedException.class, () -> read("/proc/self/environ"));
    }

    @Test
    void attackClimbOutOfTheMountWithDotDot() {
        assertThrows(AccessDeniedException.class, () -> read("/site-packages/../etc/passwd"));
        assertThrows(AccessDeniedException.class, () -> read("/site-packages/tiny/../../../../../../etc/passwd"));
        assertThrows(AccessDeniedException.class, () -> read("site-packages/../../etc/passwd"));
    }

    @Test
    void attackFollowASymlinkPlantedInTheFolder() {
        assertThrows(NoSuchFileException.class, () -> read("/site-packages/escape-link"));
        assertThrows(NoSuchFileException.class, () -> read("/site-packages/escape-dir/secret.txt"));
        assertThrows(NoSuchFileException.class, () -> fs.newDirectoryStream(Path.of("/site-packages/escape-dir"), p -> true));
        assertThrows(NoSuchFileException.class, () -> fs.readAttributes(Path.of("/site-packages/escape-link"), "size"));
    }

    @Test
    void attackWriteIntoThePackageFolder() {
        Path planted = Path.of("/site-packages/tiny/evil.py");
        assertThrows(AccessDeniedException.class, () -> fs.newByteChannel(planted,
                Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE)));
        assertThrows(AccessDeniedException.class, () -> fs.newByteChannel(Path.of("/site-packages/tiny/__init__.py"),
                Set.of(StandardOpenOption.APPEND)));
        assertThrows(AccessDeniedException.class, () -> fs.createDirectory(Path.of("/site-packages/new")));
        assertThrows(AccessDeniedException.class, () -> fs.delete(Path.of("/site-packages/tiny/__init__.py")));
        assertThrows(AccessDeniedException.class, () -> fs.checkAccess(Path.of("/site-packages/tiny"), Set.of(AccessMode.WRITE)));
        assertEquals(List.of("__init__.py"), List.of(temp.resolve("packages/gen-1/tiny").toFile().list()));
    }

    @Test
    void listingsAndRealPathsNameGuestPathsOnly() throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = fs.newDirectoryStream(Path.of("/site-packages"), p -> true)) {
            entries.forEach(p -> names.add(p.toString()));
        }
        names.sort(null);
        assertEquals(List.of("/site-packages/escape-dir", "/site-packages/escape-link", "/site-packages/inner-link.py",
                "/site-packages/tiny"), names);
        assertEquals(Path.of("/site-packages/tiny/__init__.py"), fs.toRealPath(Path.of("/site-packages/inner-link.py")));
        assertEquals(Path.of("/site-packages"), fs.toRealPath(Path.of("/site-packages/tiny/..")));
    }

    @Test
    void attackListTheHostRoot() {
        assertThrows(AccessDeniedException.class, () -> fs.newDirectoryStream(Path.of("/"), p -> true));
        assertThrows(AccessDeniedException.class, () -> fs.newDirectoryStream(temp, p -> true));
    }
}
