package dev.pysandbox.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The scratch space's rules: what it holds, its caps, and which call wrote what. */
class ScratchSpaceTest {
    private final ScratchSpace space = new ScratchSpace(100, 5);

    private void write(String path, String text, boolean append) throws IOException {
        try (SeekableByteChannel channel = space.open(Path.of(path), false, true, append, !append, true, false)) {
            channel.write(ByteBuffer.wrap(text.getBytes()));
        }
    }

    private String read(String path) throws IOException {
        try (SeekableByteChannel channel = space.open(Path.of(path), true, false, false, false, false, false)) {
            ByteBuffer buffer = ByteBuffer.allocate(200);
            channel.read(buffer);
            return new String(buffer.array(), 0, buffer.position());
        }
    }

    @Test
    void filesAreWrittenReadAppendedAndListed() throws IOException {
        write("/home/sandbox/a.txt", "abc", false);
        write("/home/sandbox/a.txt", "def", true);
        space.createDirectory(Path.of("/tmp/d"));
        assertEquals("abcdef", read("/home/sandbox/a.txt"));
        assertEquals(List.of("a.txt"), space.list(Path.of("/home/sandbox")));
        assertEquals(List.of("d"), space.list(Path.of("/tmp")));
        assertEquals(6, space.stat(Path.of("/home/sandbox/a.txt")).size());
        assertThrows(NoSuchFileException.class, () -> read("/home/sandbox/missing"));
        assertThrows(FileAlreadyExistsException.class, () -> space.open(Path.of("/home/sandbox/a.txt"), false, true, false,
                false, true, true));
    }

    @Test
    void theByteCapRefusesTheWriteThatWouldPassItAndKeepsWhatCameBefore() throws IOException {
        write("/tmp/a", "x".repeat(90), false);
        FileSystemException full = assertThrows(FileSystemException.class, () -> write("/tmp/b", "y".repeat(11), false));
        assertTrue(full.getMessage().contains("No space left in the sandbox's scratch space (more than 100 bytes"),
                full.getMessage());
        assertEquals(90, space.usedBytes());
        space.delete(Path.of("/tmp/a"));
        write("/tmp/b", "y".repeat(100), false);
        assertEquals(100, space.usedBytes());
    }

    @Test
    void theCountCapCountsFilesAndFolders() throws IOException {
        space.createDirectory(Path.of("/tmp/d"));
        for (int i = 0; i < 4; i++) {
            write("/tmp/d/f" + i, "", false);
        }
        assertThrows(FileSystemException.class, () -> write("/tmp/f5", "", false));
        space.delete(Path.of("/tmp/d/f0"));
        write("/tmp/f5", "", false);
    }

    @Test
    void attackGrowADeletedFileThatIsStillOpen() throws IOException {
        SeekableByteChannel open = space.open(Path.of("/tmp/ghost"), false, true, false, false, true, false);
        space.delete(Path.of("/tmp/ghost"));
        open.write(ByteBuffer.wrap(new byte[80]));
        assertThrows(FileSystemException.class, () -> write("/tmp/other", "x".repeat(30), false),
                "an unlinked file's bytes still count while it is open");
        open.close();
        assertEquals(0, space.usedBytes());
    }

    @Test
    void rootsCannotBeRemovedAndFoldersMustBeEmpty() throws IOException {
        assertThrows(FileSystemException.class, () -> space.delete(Path.of("/tmp")));
        assertThrows(FileSystemException.class, () -> space.delete(Path.of("/home/sandbox")));
        write("/tmp/d", "", false);
        space.createDirectory(Path.of("/tmp/e"));
        write("/tmp/e/x", "", false);
        assertThrows(DirectoryNotEmptyException.class, () -> space.delete(Path.of("/tmp/e")));
    }

    @Test
    void movesRenameAndReplaceOnlyWhenAsked() throws IOException {
        write("/tmp/a", "A", false);
        write("/tmp/b", "B", false);
        assertThrows(FileAlreadyExistsException.class, () -> space.move(Path.of("/tmp/a"), Path.of("/tmp/b"), false));
        space.move(Path.of("/tmp/a"), Path.of("/tmp/b"), true);
        assertEquals("A", read("/tmp/b"));
        assertThrows(NoSuchFileException.class, () -> read("/tmp/a"));
        assertEquals(1, space.usedBytes());
    }

    @Test
    void aCallReturnsWhatItWroteNotWhatWasPlacedOrWrittenBefore() throws IOException {
        space.beginCall();
        write("/home/sandbox/old.txt", "old", false);
        space.beginCall();
        space.place(FileName.inWorkingDirectory("in/data.csv"), "a,b".getBytes());
        write("/home/sandbox/out.txt", "new", false);
        write("/tmp/not-returned.txt", "tmp", false);
        List<ScratchSpace.Written> written = space.writtenByThisCall();
        assertEquals(List.of("out.txt"), written.stream().map(ScratchSpace.Written::path).toList());
        assertArrayEquals("new".getBytes(), written.get(0).content());
        assertEquals("a,b", read("/home/sandbox/in/data.csv"));
    }

    @Test
    void attackNamesLongerThanAFileSystemAllowsAreFileNameTooLong() throws IOException {
        write("/tmp/" + "x".repeat(255), "fits", false);
        space.createDirectory(Path.of("/tmp/d"));
        for (String path : List.of("/tmp/" + "x".repeat(256), "/tmp/d/" + "é".repeat(128))) {
            FileSystemException refused = assertThrows(FileSystemException.class, () -> write(path, "x", false), path);
            assertEquals("File name too long", refused.getReason(), "GraalPy maps this reason to ENAMETOOLONG");
            refused = assertThrows(FileSystemException.class, () -> space.createDirectory(Path.of(path)), path);
            assertEquals("File name too long", refused.getReason());
            refused = assertThrows(FileSystemException.class,
                    () -> space.move(Path.of("/tmp/" + "x".repeat(255)), Path.of(path), false), path);
            assertEquals("File name too long", refused.getReason());
        }
        assertEquals(List.of("d", "x".repeat(255)), space.list(Path.of("/tmp")));
    }

    @Test
    void attackWriteAndTruncateFilesToHoldMoreHeapThanTheCap() throws IOException {
        ScratchSpace megabyte = new ScratchSpace(1 << 20, 100);
        byte[] chunk = new byte[64 << 10];
        for (int i = 0; i < 50; i++) {
            try (SeekableByteChannel channel = megabyte.open(Path.of("/tmp/f" + i), false, true, false, true, true, false)) {
                for (int k = 0; k < 16; k++) {
                    channel.write(ByteBuffer.wrap(chunk));
                }
                channel.truncate(0);
            }
            assertTrue(megabyte.heldBytes() <= 1 << 20, "file " + i + " left " + megabyte.heldBytes() + " bytes held");
        }
        assertEquals(0, megabyte.heldBytes(), "a file truncated to nothing holds nothing");
        try (SeekableByteChannel channel = megabyte.open(Path.of("/tmp/last"), false, true, false, true, true, false)) {
            channel.write(ByteBuffer.wrap(new byte[1 << 20]));
        }
        assertEquals(1 << 20, megabyte.usedBytes());
        assertEquals(megabyte.usedBytes(), megabyte.heldBytes());
    }

    @Test
    void theRoomAGrowingFileKeepsInHandCountsAndYieldsToAnotherFile() throws IOException {
        for (int i = 0; i < 40; i++) {
            write("/tmp/a", "a", true);
            assertTrue(space.heldBytes() <= 100, space.heldBytes() + " bytes held");
            assertEquals(space.heldBytes(), space.usedBytes(), "the count is what the files hold");
        }
        write("/tmp/b", "b".repeat(60), false);
        assertEquals(100, space.heldBytes());
        assertEquals(100, space.usedBytes());
        assertEquals("a".repeat(40), read("/tmp/a"));
        assertThrows(FileSystemException.class, () -> write("/tmp/c", "c", false));
        space.delete(Path.of("/tmp/b"));
        assertEquals(40, space.heldBytes());
    }

    @Test
    void truncatingKeepsTheHeadAndGivesBackTheRest() throws IOException {
        write("/tmp/a", "0123456789".repeat(9), false);
        try (SeekableByteChannel channel = space.open(Path.of("/tmp/a"), true, true, false, false, false, false)) {
            channel.truncate(4);
            channel.position(8);
            channel.write(ByteBuffer.wrap("x".getBytes()));
        }
        assertEquals("0123\0\0\0\0x", read("/tmp/a"));
        assertEquals(9, space.heldBytes());
    }
}
