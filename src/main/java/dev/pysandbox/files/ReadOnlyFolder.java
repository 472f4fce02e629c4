package dev.pysandbox.files;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.graalvm.polyglot.io.FileSystem;

/**
 * One host folder shown to guest code read-only at a mount point: the standard library at its own path, the
 * operator's installed packages at {@code /site-packages}, or {@code run_python}'s working directory. {@link SandboxFileSystem} routes the
 * paths under the mount here.
 *
 * <p>GraalVM trusts a file system the embedder supplies completely: the CONSTRAINED policy refuses the
 * built-in host file systems but does not look inside this one, so its confinement is this class's job
 * (SECURITY.md; attack tests in {@code ReadOnlyFolderTest} and the attack suite). The rules:
 * <ul>
 *   <li>a guest path is made absolute against {@code /} and normalized; anything outside the mount is
 *       refused as {@link AccessDeniedException}, as the interpreter refuses host files without this;</li>
 *   <li>under the mount, the host file must still lie under the folder after every {@code ..} and symlink is
 *       resolved; one that does not counts as missing;</li>
 *   <li>files open for reading only; creating, writing and deleting are refused;</li>
 *   <li>paths handed back (listings, real paths) are guest paths, so no host path reaches the guest.</li>
 * </ul>
 */
public final class ReadOnlyFolder implements FileSystem {
    private static final Path GUEST_ROOT = Path.of("/");

    private final Path mount;
    private final Path folder;

    /**
     * @param mount  the absolute guest path the folder appears at
     * @param folder the host folder to show; must exist (it is resolved to its real path once, here)
     */
    public ReadOnlyFolder(Path mount, Path folder) throws IOException {
        this.mount = mount;
        this.folder = folder.toRealPath();
    }

    /** Where guests see the folder. */
    public Path mount() {
        return mount;
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
    public Path toAbsolutePath(Path path) {
        return GUEST_ROOT.resolve(path).normalize();
    }

    @Override
    public void checkAccess(Path path, Set<? extends AccessMode> modes, LinkOption... linkOptions) throws IOException {
        if (modes.contains(AccessMode.WRITE)) {
            throw readOnly(path);
        }
        Path host = host(path);
        host.getFileSystem().provider().checkAccess(host, modes.toArray(AccessMode[]::new));
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        throw readOnly(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        throw readOnly(path);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        for (OpenOption option : options) {
            if (option != StandardOpenOption.READ && option != LinkOption.NOFOLLOW_LINKS) {
                throw readOnly(path);
            }
        }
        return Files.newByteChannel(host(path), StandardOpenOption.READ);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> hostEntries = Files.newDirectoryStream(host(dir))) {
            hostEntries.forEach(hostEntry -> names.add(hostEntry.getFileName().toString()));
        }
        return new ListedDirectory(toAbsolutePath(dir), names, filter);
    }

    @Override
    public Path toRealPath(Path path, LinkOption... linkOptions) throws IOException {
        return mount.resolve(folder.relativize(host(path)).toString());
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        return Files.readAttributes(host(path), attributes);
    }

    /**
     * The host file behind a guest path, every symlink resolved, or an exception: {@link AccessDeniedException}
     * outside the mount, {@link NoSuchFileException} for what does not exist or leads out of the folder.
     */
    private Path host(Path guestPath) throws IOException {
        Path guest = toAbsolutePath(guestPath);
        if (!guest.startsWith(mount)) {
            throw new AccessDeniedException(guestPath.toString());
        }
        Path host = folder.resolve(mount.relativize(guest).toString()).normalize();
        if (!host.startsWith(folder)) {
            throw new NoSuchFileException(guestPath.toString());
        }
        Path real;
        try {
            real = host.toRealPath();
        } catch (IOException e) {
            throw new NoSuchFileException(guestPath.toString());
        }
        if (!real.startsWith(folder)) {
            throw new NoSuchFileException(guestPath.toString());
        }
        return real;
    }

    private static AccessDeniedException readOnly(Path path) {
        return new AccessDeniedException(path.toString(), null, "read-only in this sandbox");
    }
}
