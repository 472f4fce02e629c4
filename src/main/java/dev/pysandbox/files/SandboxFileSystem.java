package dev.pysandbox.files;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.graalvm.polyglot.io.FileSystem;

/**
 * The one file system a sandbox context gets; it shows the guest five places and nothing else of the host:
 * <ul>
 *   <li>the language home (GraalPy's standard library), read-only, at its own path;</li>
 *   <li>{@link #TIME_ZONES}: the host's compiled time zone database, read-only, when it has one;</li>
 *   <li>{@link ScratchSpace#HOME} (the working directory) and {@link ScratchSpace#TMP}: the call's own
 *       scratch files, in memory, capped;</li>
 *   <li>{@link #PACKAGES}: the operator's installed packages, read-only, when there are any;</li>
 *   <li>{@link #LIBRARY}: the sandbox's own Python packages (its {@code matplotlib}), read-only;</li>
 *   <li>for a {@code run_python} call that asked for it, the script's working directory, read-only, in
 *       place of the scratch working directory.</li>
 * </ul>
 * Every other path is refused as {@link AccessDeniedException} (a {@code PermissionError}), as the
 * interpreter refuses host files without a file system. {@code /} and {@code /home} exist, so that
 * {@code os.makedirs} can walk down to the working directory, but cannot be listed or changed.
 *
 * <p>GraalVM trusts an embedder's file system completely, so this routing is the boundary at this layer.
 * It serves the standard library itself, read-only: GraalVM's own {@link FileSystem#allowInternalResourceAccess}
 * serves it writable. The language home is routed first: under bubblewrap it lies in {@code /tmp}. Attack
 * tests: {@code SandboxFileSystemTest}, {@code ReadOnlyFolderTest}, {@code ScratchFilesIT}, the attack suite.
 */
public final class SandboxFileSystem implements FileSystem {
    /**
     * Where guests find the sandbox's own Python packages (its {@code matplotlib}, drawn by the worker); on
     * {@code sys.path} after the standard library and before the installed packages.
     */
    public static final Path LIBRARY = Path.of("/usr/lib/python-sandbox");
    /** Where guests find the installed packages; on {@code sys.path} after the standard library. */
    public static final Path PACKAGES = Path.of("/site-packages");
    /**
     * Where guests find the IANA time zone files: where CPython and dateutil look first on Linux, so that
     * {@code zoneinfo} and {@code dateutil.tz} find them without the {@code tzdata} package.
     */
    public static final Path TIME_ZONES = Path.of("/usr/share/zoneinfo");
    private static final Path ROOT = Path.of("/");
    private static final Set<Path> SIGNPOSTS = Set.of(ROOT, ScratchSpace.HOME.getParent());

    private final ReadOnlyFolder languageHome;
    private final ScratchSpace scratch;
    private final ReadOnlyFolder packages;
    private final ReadOnlyFolder library;
    private final ReadOnlyFolder timeZones;
    private ReadOnlyFolder runDirectory;
    private Path workingDirectory = ScratchSpace.HOME;

    /**
     * @param languageHome the standard library, mounted at its own path
     * @param scratch      the context's scratch space
     * @param packages     the package generation to show at {@link #PACKAGES}, or null for none
     * @param timeZones    the time zone database to show at {@link #TIME_ZONES}, or null for none
     */
    public SandboxFileSystem(ReadOnlyFolder languageHome, ScratchSpace scratch, ReadOnlyFolder packages,
            ReadOnlyFolder timeZones) {
        this(languageHome, scratch, packages, timeZones, null);
    }

    /** @param library the sandbox's own packages to show at {@link #LIBRARY}, or null for none */
    public SandboxFileSystem(ReadOnlyFolder languageHome, ScratchSpace scratch, ReadOnlyFolder packages,
            ReadOnlyFolder timeZones, ReadOnlyFolder library) {
        this.languageHome = languageHome;
        this.scratch = scratch;
        this.library = library;
        this.packages = packages;
        this.timeZones = timeZones;
    }

    public ScratchSpace scratch() {
        return scratch;
    }

    /**
     * Shows a host folder read-only as the working directory instead of the scratch one ({@code run_python}
     * with {@code run-python.read-working-directory}); {@code /tmp} stays writable.
     */
    public synchronized void showAsWorkingDirectory(Path hostFolder) throws IOException {
        runDirectory = new ReadOnlyFolder(ScratchSpace.HOME, hostFolder);
    }

    @Override
    public Path parsePath(URI uri) {
        return Path.of(uri);
    }

    @Override
    public Path parsePath(String path) {
        return Path.of(path);
    }

    @Override
    public synchronized Path toAbsolutePath(Path path) {
        return workingDirectory.resolve(path);
    }

    @Override
    public synchronized void setCurrentWorkingDirectory(Path directory) {
        Path target = toAbsolutePath(directory).normalize();
        try {
            if (!Boolean.TRUE.equals(readAttributes(target, "isDirectory").get("isDirectory"))) {
                throw new IllegalArgumentException("not a directory: " + directory);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not a directory: " + directory, e);
        }
        workingDirectory = target;
    }

    @Override
    public Path getTempDirectory() {
        return ScratchSpace.TMP;
    }

    @Override
    public void checkAccess(Path path, Set<? extends AccessMode> modes, LinkOption... linkOptions) throws IOException {
        Path guest = absolute(path);
        FileSystem view = view(guest);
        if (view != null) {
            view.checkAccess(guest, modes, linkOptions);
        } else if (ScratchSpace.holds(guest)) {
            ScratchSpace.Entry entry = scratch.stat(guest);
            if (modes.contains(AccessMode.EXECUTE) && !entry.directory()) {
                throw new AccessDeniedException(path.toString());
            }
        } else if (!SIGNPOSTS.contains(guest) || modes.contains(AccessMode.WRITE)) {
            throw refused(path);
        }
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        Path guest = absolute(dir);
        FileSystem view = view(guest);
        if (view != null) {
            view.createDirectory(guest, attrs);
        } else if (ScratchSpace.holds(guest)) {
            scratch.createDirectory(guest);
        } else if (SIGNPOSTS.contains(guest)) {
            throw new FileAlreadyExistsException(dir.toString());
        } else {
            throw refused(dir);
        }
    }

    @Override
    public void delete(Path path) throws IOException {
        Path guest = absolute(path);
        FileSystem view = view(guest);
        if (view != null) {
            view.delete(guest);
        } else if (ScratchSpace.holds(guest)) {
            scratch.delete(guest);
        } else {
            throw refused(path);
        }
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        Path guest = absolute(path);
        FileSystem view = view(guest);
        if (view != null) {
            return view.newByteChannel(guest, options, attrs);
        }
        if (!ScratchSpace.holds(guest)) {
            throw refused(path);
        }
        boolean append = options.contains(StandardOpenOption.APPEND);
        boolean write = append || options.contains(StandardOpenOption.WRITE);
        boolean read = options.contains(StandardOpenOption.READ) || !write;
        boolean createNew = write && options.contains(StandardOpenOption.CREATE_NEW);
        boolean create = write && (createNew || options.contains(StandardOpenOption.CREATE));
        return scratch.open(guest, read, write, append, options.contains(StandardOpenOption.TRUNCATE_EXISTING),
                create, createNew);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        Path guest = absolute(dir);
        FileSystem view = view(guest);
        if (view != null) {
            return view.newDirectoryStream(guest, filter);
        }
        if (!ScratchSpace.holds(guest)) {
            throw refused(dir);
        }
        return new ListedDirectory(guest, scratch.list(guest), filter);
    }

    @Override
    public Path toRealPath(Path path, LinkOption... linkOptions) throws IOException {
        Path guest = absolute(path);
        FileSystem view = view(guest);
        if (view != null) {
            return view.toRealPath(guest, linkOptions);
        }
        if (ScratchSpace.holds(guest)) {
            scratch.stat(guest); // it must exist; the scratch space has no links, so its path is its real path
            return guest;
        }
        if (SIGNPOSTS.contains(guest)) {
            return guest;
        }
        throw refused(path);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        Path guest = absolute(path);
        FileSystem view = view(guest);
        if (view != null) {
            return view.readAttributes(guest, attributes, options);
        }
        ScratchSpace.Entry entry;
        if (ScratchSpace.holds(guest)) {
            entry = scratch.stat(guest);
        } else if (SIGNPOSTS.contains(guest)) {
            entry = new ScratchSpace.Entry(true, 0, 0);
        } else {
            throw refused(path);
        }
        return Attributes.select(attributes, entry, guest, ScratchSpace.holds(guest));
    }

    /**
     * Permissions and times of scratch files are accepted and not kept ({@code shutil.copy} sets both);
     * nothing else may be changed.
     */
    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        Path guest = absolute(path);
        if (view(guest) != null || !ScratchSpace.holds(guest)) {
            throw new AccessDeniedException(path.toString(), null, "read-only in this sandbox");
        }
        scratch.stat(guest); // it must exist
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        Path from = absolute(source);
        Path to = absolute(target);
        if (view(from) != null || view(to) != null) {
            throw new AccessDeniedException(source.toString(), target.toString(), "read-only in this sandbox");
        }
        if (!ScratchSpace.holds(from) || !ScratchSpace.holds(to)) {
            throw refused(ScratchSpace.holds(from) ? target : source);
        }
        scratch.move(from, to, List.of(options).contains(StandardCopyOption.REPLACE_EXISTING));
    }

    /** The read-only folder a guest path lies in, or null for the scratch space and everything else. */
    private synchronized FileSystem view(Path guest) {
        if (guest.startsWith(languageHome.mount())) {
            return languageHome;
        }
        if (packages != null && guest.startsWith(PACKAGES)) {
            return packages;
        }
        if (library != null && guest.startsWith(LIBRARY)) {
            return library;
        }
        if (timeZones != null && guest.startsWith(TIME_ZONES)) {
            return timeZones;
        }
        if (runDirectory != null && guest.startsWith(ScratchSpace.HOME)) {
            return runDirectory;
        }
        return null;
    }

    /**
     * A guest path as the absolute, normalized path the routing looks at. A path the guest gives, or the
     * one it comes to, with a name over 255 bytes or a length over 4096 is "File name too long"
     * ({@code ENAMETOOLONG}), as on Linux, wherever it points ({@link FileName}).
     */
    private Path absolute(Path path) throws FileSystemException {
        FileName.checkLength(path);
        Path absolute = toAbsolutePath(path).normalize();
        FileName.checkLength(absolute);
        return absolute;
    }

    private static AccessDeniedException refused(Path path) {
        return new AccessDeniedException(path.toString(), null,
                "only the standard library, " + ScratchSpace.HOME + ", " + ScratchSpace.TMP + " and " + PACKAGES
                        + " exist in this sandbox");
    }

    /**
     * The file attributes Truffle asks for, in its {@code view:name,name} form. GraalPy's {@code os.stat}
     * asks for the {@code unix} view first; files belong to the neutral uid and gid the prelude reports.
     */
    static final class Attributes {
        private Attributes() {
        }

        static Map<String, Object> select(String request, ScratchSpace.Entry entry, Path guest, boolean writable) {
            int colon = request.indexOf(':');
            String view = colon < 0 ? "basic" : request.substring(0, colon);
            if (!Set.of("basic", "posix", "unix").contains(view)) {
                throw new UnsupportedOperationException("no attribute view " + view);
            }
            Map<String, Object> all = all(entry, guest, writable);
            Map<String, Object> chosen = new HashMap<>();
            for (String name : request.substring(colon + 1).split(",")) {
                if (name.equals("*")) {
                    chosen.putAll(all);
                } else if (all.containsKey(name)) {
                    chosen.put(name, all.get(name));
                } else {
                    throw new UnsupportedOperationException("no attribute " + name);
                }
            }
            return chosen;
        }

        private static Map<String, Object> all(ScratchSpace.Entry entry, Path guest, boolean writable) {
            FileTime modified = FileTime.fromMillis(entry.modifiedMillis());
            int permissions = entry.directory() ? (writable ? 0755 : 0555) : (writable ? 0644 : 0444);
            Map<String, Object> all = new HashMap<>();
            all.put("size", entry.size());
            all.put("lastModifiedTime", modified);
            all.put("lastAccessTime", modified);
            all.put("creationTime", modified);
            all.put("ctime", modified);
            all.put("isRegularFile", !entry.directory());
            all.put("isDirectory", entry.directory());
            all.put("isSymbolicLink", false);
            all.put("isOther", false);
            all.put("fileKey", null);
            all.put("permissions", PosixFilePermissions.fromString(rwx(permissions)));
            all.put("mode", (entry.directory() ? 0040000 : 0100000) | permissions);
            all.put("ino", (long) guest.hashCode() & 0xffffffffL);
            all.put("dev", 1L);
            all.put("rdev", 0L);
            all.put("nlink", 1);
            all.put("uid", 65534);
            all.put("gid", 65534);
            return all;
        }

        private static String rwx(int bits) {
            StringBuilder text = new StringBuilder();
            for (int shift = 6; shift >= 0; shift -= 3) {
                int part = bits >> shift;
                text.append((part & 4) != 0 ? 'r' : '-').append((part & 2) != 0 ? 'w' : '-').append((part & 1) != 0 ? 'x' : '-');
            }
            return text.toString();
        }
    }
}
