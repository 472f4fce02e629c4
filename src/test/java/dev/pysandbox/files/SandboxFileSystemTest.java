package dev.pysandbox.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routing of the one file system a context gets, one attack per test: GraalVM does not check a file
 * system the embedder supplies, so these rules are the boundary at this layer. The host files attacked live
 * in a JUnit folder under the host's /tmp: the guest's /tmp is its own scratch space, where those paths
 * simply do not exist.
 */
class SandboxFileSystemTest {
    @TempDir
    Path temp;
    private SandboxFileSystem fs;
    private Path secret;
    private Path home;

    @BeforeEach
    void build() throws IOException {
        Path packages = Files.createDirectories(temp.resolve("gen-1/tiny"));
        Files.writeString(packages.resolve("__init__.py"), "VALUE = 1\n");
        secret = Files.writeString(temp.resolve("secret.txt"), "host secret");
        home = Files.createDirectories(temp.resolve("python-home/lib/json"));
        Files.writeString(home.resolve("__init__.py"), "# json\n");
        Path zones = Files.createDirectories(temp.resolve("zoneinfo/Europe"));
        Files.writeString(zones.resolve("Paris"), "TZif2 Paris");
        Files.createSymbolicLink(zones.resolve("Lost"), secret);
        fs = new SandboxFileSystem(new ReadOnlyFolder(temp.resolve("python-home"), temp.resolve("python-home")),
                new ScratchSpace(1 << 20, 100),
                new ReadOnlyFolder(SandboxFileSystem.PACKAGES, temp.resolve("gen-1")),
                new ReadOnlyFolder(SandboxFileSystem.TIME_ZONES, temp.resolve("zoneinfo")));
    }

    private void write(String path, String text) throws IOException {
        try (SeekableByteChannel channel = fs.newByteChannel(Path.of(path),
                Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING))) {
            channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private String read(String path) throws IOException {
        try (SeekableByteChannel channel = fs.newByteChannel(Path.of(path), Set.of(StandardOpenOption.READ))) {
            ByteBuffer buffer = ByteBuffer.allocate(1024);
            channel.read(buffer);
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void relativePathsAreTheScratchWorkingDirectory() throws IOException {
        write("notes.txt", "hi");
        assertEquals("hi", read("/home/sandbox/notes.txt"));
        assertEquals(Path.of("/home/sandbox/x"), fs.toAbsolutePath(Path.of("x")));
        fs.setCurrentWorkingDirectory(Path.of("/tmp"));
        write("t.txt", "in tmp");
        assertEquals("in tmp", read("/tmp/t.txt"));
        assertEquals("VALUE = 1\n", read("/site-packages/tiny/__init__.py"));
    }

    @Test
    void timeZoneFilesAreShownReadOnlyWhereZoneinfoLooks() throws IOException {
        assertEquals("TZif2 Paris", read("/usr/share/zoneinfo/Europe/Paris"));
        assertThrows(AccessDeniedException.class, () -> write("/usr/share/zoneinfo/Europe/Paris", "x"));
        assertThrows(AccessDeniedException.class, () -> write("/usr/share/zoneinfo/Europe/Planted", "x"));
        assertEquals("TZif2 Paris", Files.readString(temp.resolve("zoneinfo/Europe/Paris")));
    }

    /** Attack: a link in the time zone database that leads out of it (localtime often does) reads as missing. */
    @Test
    void attackFollowALinkOutOfTheTimeZoneDatabase() {
        assertThrows(IOException.class, () -> read("/usr/share/zoneinfo/Europe/Lost"));
        assertThrows(IOException.class, () -> read("/usr/share/zoneinfo/../../../" + secret));
        assertThrows(AccessDeniedException.class, () -> read("/usr/share/zoneinfo-other/Europe/Paris"));
    }

    @Test
    void attackClimbOutOfTheScratchSpaceWithDotDot() {
        assertThrows(IOException.class, () -> read("../../" + secret));
        assertThrows(IOException.class, () -> read("/tmp/../" + secret));
        assertThrows(AccessDeniedException.class, () -> write("/home/sandbox/../../etc/planted", "x"));
        assertThrows(AccessDeniedException.class, () -> write("../planted", "x"));
    }

    @Test
    void attackReachHostFilesByAbsolutePath() {
        assertThrows(IOException.class, () -> read(secret.toString()));
        assertThrows(AccessDeniedException.class, () -> read("/etc/passwd"));
        assertThrows(AccessDeniedException.class, () -> read("/proc/self/environ"));
        assertThrows(IOException.class, () -> write(temp.resolve("planted").toString(), "x"));
        assertThrows(AccessDeniedException.class, () -> fs.newDirectoryStream(Path.of("/"), p -> true));
        assertThrows(AccessDeniedException.class, () -> fs.newDirectoryStream(Path.of("/home"), p -> true));
        assertEquals(false, Files.exists(temp.resolve("planted")));
    }

    @Test
    void attackWriteOrMoveIntoThePackageFolder() throws IOException {
        assertThrows(AccessDeniedException.class, () -> write("/site-packages/evil.py", "x"));
        write("/tmp/evil.py", "x");
        assertThrows(AccessDeniedException.class, () -> fs.move(Path.of("/tmp/evil.py"), Path.of("/site-packages/evil.py")));
        assertThrows(AccessDeniedException.class, () -> fs.move(Path.of("/site-packages/tiny"), Path.of("/tmp/tiny")));
        assertThrows(AccessDeniedException.class, () -> fs.checkAccess(Path.of("/site-packages/tiny"), Set.of(AccessMode.WRITE)));
        assertEquals(Set.of("__init__.py"), Set.of(temp.resolve("gen-1/tiny").toFile().list()));
    }

    @Test
    void attackPlantAModuleInTheStandardLibrary() throws IOException {
        assertEquals("# json\n", read(home.resolve("__init__.py").toString()));
        assertThrows(AccessDeniedException.class, () -> write(home.resolve("evil_planted.py").toString(), "x"));
        assertThrows(AccessDeniedException.class, () -> write(home.resolve("__init__.py").toString(), "x"));
        assertThrows(AccessDeniedException.class, () -> fs.delete(home.resolve("__init__.py")));
        write("/tmp/evil.py", "x");
        assertThrows(AccessDeniedException.class, () -> fs.move(Path.of("/tmp/evil.py"), home.resolve("evil.py")));
        assertEquals(Set.of("__init__.py"), Set.of(home.toFile().list()));
    }

    @Test
    void attackPlantASymlinkInTheScratchSpace() {
        assertThrows(UnsupportedOperationException.class,
                () -> fs.createSymbolicLink(Path.of("/tmp/link"), Path.of("/etc/passwd")));
        assertThrows(UnsupportedOperationException.class, () -> fs.createLink(Path.of("/tmp/link"), secret));
    }

    @Test
    void attackMoveAHostFileIntoTheScratchSpace() {
        assertThrows(IOException.class, () -> fs.move(secret, Path.of("/tmp/stolen")));
        assertThrows(AccessDeniedException.class, () -> fs.move(Path.of("/etc/hostname"), Path.of("/tmp/stolen")));
        assertEquals(true, Files.exists(secret));
    }

    @Test
    void runDirectoryIsShownReadOnlyAsTheWorkingDirectory() throws IOException {
        Path run = Files.createDirectories(temp.resolve("run"));
        Files.writeString(run.resolve("data.csv"), "a,b\n");
        fs.showAsWorkingDirectory(run);
        assertEquals("a,b\n", read("data.csv"));
        assertThrows(AccessDeniedException.class, () -> write("out.txt", "x"));
        assertThrows(AccessDeniedException.class, () -> read("../secret.txt"));
        write("/tmp/still-writable", "ok");
        assertEquals(false, Files.exists(run.resolve("out.txt")));
    }

    @Test
    void statAnswersTheUnixViewGraalPyAsksFor() throws IOException {
        write("f.txt", "12345");
        Map<String, Object> unix = fs.readAttributes(Path.of("f.txt"), "unix:mode,size,uid,isDirectory");
        assertEquals(0100644, unix.get("mode"));
        assertEquals(5L, unix.get("size"));
        assertEquals(65534, unix.get("uid"));
        assertEquals(false, unix.get("isDirectory"));
        assertEquals(true, fs.readAttributes(Path.of("/home"), "isDirectory").get("isDirectory"));
        assertThrows(UnsupportedOperationException.class, () -> fs.readAttributes(Path.of("f.txt"), "dos:hidden"));
    }

    @Test
    void attackNamesAndPathsLongerThanLinuxAllowsAreFileNameTooLong() throws IOException {
        String tooLongName = "x".repeat(256);
        String tooLongPath = "/tmp/" + ("d".repeat(200) + "/").repeat(21);
        String undone = "/tmp/" + "x/../".repeat(900) + "ok.txt";
        for (String path : List.of(tooLongName, "/tmp/" + tooLongName, "/tmp/" + tooLongName + "/..", tooLongPath,
                "/site-packages/" + tooLongName, undone)) {
            FileSystemException refused = assertThrows(FileSystemException.class, () -> write(path, "x"), path);
            assertEquals("File name too long", refused.getReason(), path);
            refused = assertThrows(FileSystemException.class, () -> fs.readAttributes(Path.of(path), "size"), path);
            assertEquals("File name too long", refused.getReason(), path);
        }
        write("x".repeat(255), "fits");
        assertEquals("fits", read("/home/sandbox/" + "x".repeat(255)));
    }
}
