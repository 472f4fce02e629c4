package dev.pysandbox.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The files one call (or one session) may write: an in-memory tree under {@link #TMP} and the working
 * directory {@link #HOME}, private to the context it belongs to and gone with it. Nothing here touches the
 * host's disk.
 *
 * <p>Two caps keep a call from filling the worker's heap through files: the bytes of all files together and
 * the number of files and folders. Going over either is an {@link IOException} the guest sees as an
 * {@code OSError} ("No space left in the sandbox's scratch space"), and what was written before stays. The
 * bytes counted are the bytes the files' buffers hold, spare room included, so the cap bounds the heap they
 * take: a file gives its room back when it is truncated or removed, and the spare room a growing file keeps
 * in hand yields to another file's write before that write is refused.
 *
 * <p>Names follow a Linux file system's rule ({@link FileName}): a name longer than 255 bytes, or a path
 * longer than 4096, is refused as "File name too long", {@code ENAMETOOLONG} in the guest.
 *
 * <p>Every file remembers the call that last wrote it ({@link #beginCall()}), so a call's answer can return
 * the files that call wrote, and a session's later calls do not return them again. All methods synchronize
 * on this object: the guest's thread writes while the worker may read the tree after a call.
 */
public final class ScratchSpace {
    /** The working directory: relative paths, {@code files} in and files out live here. */
    public static final Path HOME = Path.of("/home/sandbox");
    public static final Path TMP = Path.of("/tmp");
    private static final Path ROOT = Path.of("/");
    /** The largest array the JVM reliably allocates. */
    private static final int MAX_FILE = Integer.MAX_VALUE - 8;
    private static final byte[] EMPTY = new byte[0];

    private final long maxBytes;
    private final int maxEntries;
    private final Dir root = new Dir();
    /** The files holding bytes: those in the tree, and removed ones a channel still has open. */
    private final Set<FileNode> files = new HashSet<>();
    /** The bytes {@link #files} hold: the length of their buffers, not of their contents. */
    private long usedBytes;
    private int entries;
    private int call;

    /**
     * @param maxBytes   the bytes all files may hold together ({@code files.max-bytes})
     * @param maxEntries how many files and folders may exist besides the two roots ({@code files.max-count})
     */
    public ScratchSpace(long maxBytes, int maxEntries) {
        this.maxBytes = maxBytes;
        this.maxEntries = maxEntries;
        Dir home = new Dir();
        root.children.put("tmp", new Dir());
        root.children.put("home", home);
        home.children.put("sandbox", new Dir());
    }

    /** Whether a guest path (absolute, normalized) is one this space holds. */
    public static boolean holds(Path path) {
        return path.startsWith(TMP) || path.startsWith(HOME);
    }

    /** Starts a new call: files written from now on belong to it. */
    public synchronized void beginCall() {
        call++;
    }

    /** A file or folder, as {@link #stat} reports it. */
    public record Entry(boolean directory, long size, long modifiedMillis) {
    }

    /** A file the current call wrote: its path under {@link #HOME}, and its bytes. */
    public record Written(String path, byte[] content) {
    }

    public synchronized Entry stat(Path path) throws IOException {
        Node node = find(path);
        return node instanceof FileNode file ? new Entry(false, file.length, file.modified)
                : new Entry(true, 0, ((Dir) node).modified);
    }

    public synchronized List<String> list(Path dir) throws IOException {
        if (!(find(dir) instanceof Dir folder)) {
            throw new NotDirectoryException(dir.toString());
        }
        return new ArrayList<>(folder.children.keySet());
    }

    public synchronized void createDirectory(Path dir) throws IOException {
        Dir parent = parentOf(dir);
        String name = dir.getFileName().toString();
        if (parent.children.containsKey(name)) {
            throw new FileAlreadyExistsException(dir.toString());
        }
        reserveEntry(dir);
        parent.children.put(name, new Dir());
        parent.touch();
    }

    public synchronized void delete(Path path) throws IOException {
        if (path.getNameCount() <= 1 || path.equals(HOME)) {
            throw new FileSystemException(path.toString(), null, "a root of the scratch space cannot be removed");
        }
        Dir parent = parentOf(path);
        String name = path.getFileName().toString();
        Node node = parent.children.get(name);
        if (node == null) {
            throw new NoSuchFileException(path.toString());
        }
        if (node instanceof Dir dir && !dir.children.isEmpty()) {
            throw new DirectoryNotEmptyException(path.toString());
        }
        if (node instanceof FileNode file) {
            // An open file keeps its bytes (and they keep counting) until its last channel closes, as on a disk.
            file.removed = true;
            if (file.openChannels == 0) {
                release(file);
            }
        }
        parent.children.remove(name);
        parent.touch();
        entries--;
    }

    /** Renames a file or folder, replacing a file at the target if asked to. */
    public synchronized void move(Path source, Path target, boolean replace) throws IOException {
        Dir from = parentOf(source);
        Node node = from.children.get(source.getFileName().toString());
        if (node == null) {
            throw new NoSuchFileException(source.toString());
        }
        if (source.equals(target)) {
            return;
        }
        if (target.startsWith(source)) {
            throw new FileSystemException(source.toString(), target.toString(), "cannot move a folder into itself");
        }
        FileName.checkLength(target);
        Dir to = parentOf(target);
        String name = target.getFileName().toString();
        Node existing = to.children.get(name);
        if (existing != null) {
            if (!replace) {
                throw new FileAlreadyExistsException(target.toString());
            }
            if (existing instanceof Dir dir && !dir.children.isEmpty()) {
                throw new DirectoryNotEmptyException(target.toString());
            }
            delete(target);
        }
        from.children.remove(source.getFileName().toString());
        to.children.put(name, node);
        if (node instanceof FileNode file) {
            file.writtenIn = call; // it is where it is now because of this call
        }
        from.touch();
        to.touch();
    }

    /**
     * Opens a file as a channel over its bytes.
     *
     * @param create whether a missing file is created; {@code createNew} refuses an existing one
     */
    public synchronized SeekableByteChannel open(Path path, boolean read, boolean write, boolean append,
            boolean truncate, boolean create, boolean createNew) throws IOException {
        Dir parent = parentOf(path);
        String name = path.getFileName().toString();
        Node node = parent.children.get(name);
        if (node instanceof Dir) {
            if (write) {
                throw new FileSystemException(path.toString(), null, "Is a directory");
            }
            // As on Linux, a folder opens for reading (GraalPy's fd-based walks, shutil.rmtree's among them,
            // need that) and reading it fails.
            return new FolderChannel(path);
        }
        if (node != null && createNew) {
            throw new FileAlreadyExistsException(path.toString());
        }
        FileNode file = (FileNode) node;
        if (file == null) {
            if (!create) {
                throw new NoSuchFileException(path.toString());
            }
            reserveEntry(path);
            file = new FileNode(call);
            parent.children.put(name, file);
            files.add(file);
            parent.touch();
        }
        if (write && truncate) {
            resize(file, 0);
        }
        return new FileChannel(file, read, write, append);
    }

    /** Places a file, creating the folders on its way: {@code files} in. {@code path} is under {@link #HOME}. */
    public synchronized void place(Path path, byte[] content) throws IOException {
        Path folder = HOME;
        for (int i = HOME.getNameCount(); i < path.getNameCount() - 1; i++) {
            folder = folder.resolve(path.getName(i).toString());
            Node node = lookup(folder);
            if (node == null) {
                createDirectory(folder);
            } else if (!(node instanceof Dir)) {
                throw new NotDirectoryException(folder.toString());
            }
        }
        try (SeekableByteChannel channel = open(path, false, true, false, true, true, false)) {
            channel.write(ByteBuffer.wrap(content));
        }
        ((FileNode) find(path)).writtenIn = -1; // placed for the call, not written by it
    }

    /** The files under {@link #HOME} that the current call wrote, in path order. */
    public synchronized List<Written> writtenByThisCall() {
        List<Written> written = new ArrayList<>();
        collect((Dir) lookup(HOME), "", written);
        return written;
    }

    private void collect(Dir dir, String prefix, List<Written> written) {
        for (Map.Entry<String, Node> child : dir.children.entrySet()) {
            String path = prefix + child.getKey();
            if (child.getValue() instanceof Dir sub) {
                collect(sub, path + "/", written);
            } else if (child.getValue() instanceof FileNode file && file.writtenIn == call) {
                written.add(new Written(path, Arrays.copyOf(file.data, file.length)));
            }
        }
    }

    /** The bytes the files hold: what {@code files.max-bytes} caps. */
    public synchronized long usedBytes() {
        return usedBytes;
    }

    /** The bytes the files' buffers hold, summed from the buffers themselves. */
    synchronized long heldBytes() {
        long held = 0;
        for (FileNode file : files) {
            held += file.data.length;
        }
        return held;
    }

    private Node find(Path path) throws IOException {
        Node node = lookup(path);
        if (node == null) {
            throw new NoSuchFileException(path.toString());
        }
        return node;
    }

    /** The node at a guest path, or null where there is none. */
    private Node lookup(Path path) {
        Node node = root;
        for (Path name : ROOT.relativize(path)) {
            if (name.toString().isEmpty()) {
                continue;
            }
            if (!(node instanceof Dir dir) || (node = dir.children.get(name.toString())) == null) {
                return null;
            }
        }
        return node;
    }

    private Dir parentOf(Path path) throws IOException {
        Path parent = path.getParent();
        Node node = parent == null ? null : lookup(parent);
        if (node == null) {
            throw new NoSuchFileException(path.toString());
        }
        if (!(node instanceof Dir dir)) {
            throw new NotDirectoryException(parent.toString());
        }
        return dir;
    }

    private void reserveEntry(Path path) throws IOException {
        FileName.checkLength(path);
        if (entries >= maxEntries) {
            throw full(path, "more than " + maxEntries + " files and folders");
        }
        entries++;
    }

    /**
     * Makes a file this long. Growing doubles its buffer where the cap leaves room for that, so that writing
     * a file piece by piece copies it a few times only; shrinking gives the rest of the buffer back. Bytes
     * past the length are always zero, so growing over a gap reads as zeros.
     */
    private void resize(FileNode file, long length) throws IOException {
        if (length > file.data.length) {
            grow(file, length);
        } else if (length < file.length) {
            hold(file, Arrays.copyOf(file.data, (int) length));
        }
        file.length = (int) length;
        file.modified = System.currentTimeMillis();
        file.writtenIn = call;
    }

    private void grow(FileNode file, long length) throws IOException {
        if (length > MAX_FILE) {
            throw full(null, "a file larger than 2 GB");
        }
        if (usedBytes + length - file.data.length > maxBytes) {
            trimSpareRoom();
            if (usedBytes + length - file.data.length > maxBytes) {
                throw full(null, "more than " + maxBytes + " bytes in all");
            }
        }
        long room = file.data.length + maxBytes - usedBytes;
        long doubled = Math.min(Math.min((long) file.data.length * 2, room), MAX_FILE);
        hold(file, Arrays.copyOf(file.data, (int) Math.max(length, doubled)));
    }

    /** Gives back the room files keep past their length: a write is refused only when the contents fill the cap. */
    private void trimSpareRoom() {
        for (FileNode file : files) {
            if (file.data.length > file.length) {
                hold(file, Arrays.copyOf(file.data, file.length));
            }
        }
    }

    /** Swaps a file's buffer, counting the difference. */
    private void hold(FileNode file, byte[] data) {
        usedBytes += data.length - file.data.length;
        file.data = data;
    }

    /** A removed file's last channel closed, or it had none: its bytes are free. */
    private void release(FileNode file) {
        hold(file, EMPTY);
        files.remove(file);
    }

    private static FileSystemException full(Path path, String what) {
        return new FileSystemException(path == null ? null : path.toString(), null,
                "No space left in the sandbox's scratch space (" + what + "; setting files.max-bytes or files.max-count)");
    }

    private abstract static sealed class Node permits Dir, FileNode {
        long modified = System.currentTimeMillis();

        void touch() {
            modified = System.currentTimeMillis();
        }
    }

    private static final class Dir extends Node {
        final TreeMap<String, Node> children = new TreeMap<>();
    }

    private static final class FileNode extends Node {
        byte[] data = EMPTY;
        int length;
        int writtenIn;
        int openChannels;
        /** Deleted; while a channel still has it open, its bytes still count against the cap. */
        boolean removed;

        FileNode(int call) {
            this.writtenIn = call;
        }
    }

    /** An open folder: it has a place but no bytes. */
    private static final class FolderChannel implements SeekableByteChannel {
        private final Path path;
        private boolean open = true;

        FolderChannel(Path path) {
            this.path = path;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            throw new FileSystemException(path.toString(), null, "Is a directory");
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public long position() {
            return 0;
        }

        @Override
        public SeekableByteChannel position(long newPosition) {
            return this;
        }

        @Override
        public long size() {
            return 0;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new NonWritableChannelException();
        }

        @Override
        public synchronized boolean isOpen() {
            return open;
        }

        @Override
        public synchronized void close() {
            open = false;
        }
    }

    /** A channel over one file's bytes; every operation takes the space's lock, as the tree's do. */
    private final class FileChannel implements SeekableByteChannel {
        private final FileNode file;
        private final boolean read;
        private final boolean write;
        private final boolean append;
        private long position;
        private boolean open = true;

        FileChannel(FileNode file, boolean read, boolean write, boolean append) {
            this.file = file;
            this.read = read;
            this.write = write;
            this.append = append;
            file.openChannels++;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            synchronized (ScratchSpace.this) {
                ensureOpen();
                if (!read) {
                    throw new NonReadableChannelException();
                }
                if (position >= file.length) {
                    return -1;
                }
                int n = (int) Math.min(dst.remaining(), file.length - position);
                dst.put(file.data, (int) position, n);
                position += n;
                return n;
            }
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            synchronized (ScratchSpace.this) {
                ensureOpen();
                if (!write) {
                    throw new NonWritableChannelException();
                }
                if (append) {
                    position = file.length;
                }
                int n = src.remaining();
                long end = position + n;
                if (end > file.length) {
                    resize(file, end);
                } else {
                    file.modified = System.currentTimeMillis();
                    file.writtenIn = call;
                }
                src.get(file.data, (int) position, n);
                position = end;
                return n;
            }
        }

        @Override
        public long position() throws IOException {
            synchronized (ScratchSpace.this) {
                ensureOpen();
                return position;
            }
        }

        @Override
        public SeekableByteChannel position(long newPosition) throws IOException {
            synchronized (ScratchSpace.this) {
                ensureOpen();
                if (newPosition < 0) {
                    throw new IllegalArgumentException("negative position");
                }
                position = newPosition;
                return this;
            }
        }

        @Override
        public long size() throws IOException {
            synchronized (ScratchSpace.this) {
                ensureOpen();
                return file.length;
            }
        }

        @Override
        public SeekableByteChannel truncate(long size) throws IOException {
            synchronized (ScratchSpace.this) {
                ensureOpen();
                if (!write) {
                    throw new NonWritableChannelException();
                }
                if (size < file.length) {
                    resize(file, size);
                }
                position = Math.min(position, size);
                return this;
            }
        }

        @Override
        public boolean isOpen() {
            synchronized (ScratchSpace.this) {
                return open;
            }
        }

        @Override
        public void close() {
            synchronized (ScratchSpace.this) {
                if (open) {
                    open = false;
                    if (--file.openChannels == 0 && file.removed) {
                        release(file);
                    }
                }
            }
        }

        private void ensureOpen() throws ClosedChannelException {
            if (!open) {
                throw new ClosedChannelException();
            }
        }
    }
}
