package dev.pysandbox.worker.javascript;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import dev.pysandbox.files.ScratchSpace;
import dev.pysandbox.wire.WireCodec;

/**
 * The door from a JavaScript context's {@code files} object ({@code files.js}) to its scratch space, the same
 * in-memory {@link ScratchSpace} Python's files live in: the working directory {@code /home/sandbox}, where the
 * call's {@code files} are placed and from where what the code writes comes back, and {@code /tmp}. The context
 * itself has no file system; this is its only way to files, and it reaches nothing but that space.
 *
 * <p>Called {@code (op, path, data)} with strings only; answers JSON text, {@code {"ok": true, "value": ...}} or
 * {@code {"ok": false, "code": "ENOENT", "message": ...}}, so that no host exception or class name reaches the
 * guest. File contents cross as base64.
 */
final class ScratchFiles implements ProxyExecutable {
    /** The operations {@code files.js} asks for. */
    private enum Op { READ, WRITE, APPEND, LIST, STAT, REMOVE, MKDIR }

    private final ScratchSpace space;

    ScratchFiles(ScratchSpace space) {
        this.space = space;
    }

    @Override
    public Object execute(Value... arguments) {
        if (arguments.length != 3 || !arguments[0].isString() || !arguments[1].isString()
                || !(arguments[2].isString() || arguments[2].isNull())) {
            return failure("EINVAL", "the files bridge takes (op, path, data) as strings");
        }
        Op op;
        try {
            op = Op.valueOf(arguments[0].asString().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return failure("EINVAL", "unknown file operation");
        }
        String name = arguments[1].asString();
        Path path;
        try {
            path = resolve(name);
        } catch (IllegalArgumentException e) {
            return failure("EACCES", e.getMessage());
        }
        try {
            return success(switch (op) {
                case READ -> Base64.getEncoder().encodeToString(read(path));
                case WRITE, APPEND -> {
                    write(path, Base64.getDecoder().decode(arguments[2].isNull() ? "" : arguments[2].asString()),
                            op == Op.APPEND);
                    yield null;
                }
                case LIST -> space.list(path).stream().sorted().toList();
                case STAT -> {
                    ScratchSpace.Entry entry = space.stat(path);
                    Map<String, Object> stat = new LinkedHashMap<>();
                    stat.put("directory", entry.directory());
                    stat.put("size", entry.size());
                    stat.put("modified", entry.modifiedMillis());
                    yield stat;
                }
                case REMOVE -> {
                    space.delete(path);
                    yield null;
                }
                case MKDIR -> {
                    space.createDirectory(path);
                    yield null;
                }
            });
        } catch (NoSuchFileException e) {
            return failure("ENOENT", "no such file or directory: " + name);
        } catch (FileAlreadyExistsException e) {
            return failure("EEXIST", "already exists: " + name);
        } catch (NotDirectoryException e) {
            return failure("ENOTDIR", "not a directory: " + name);
        } catch (DirectoryNotEmptyException e) {
            return failure("ENOTEMPTY", "directory not empty: " + name);
        } catch (IOException | IllegalArgumentException e) {
            // The space's own refusals (full, a root, a folder read as a file) say what happened, with guest paths.
            return failure("EIO", name + ": " + e.getMessage());
        }
    }

    /**
     * The guest path a name stands for: relative to the working directory, or absolute under it or {@code /tmp};
     * {@code ..} may not leave them.
     */
    static Path resolve(String name) {
        if (name.isEmpty() || name.indexOf('\0') >= 0 || name.length() > 4096) {
            throw new IllegalArgumentException("'" + (name.length() > 64 ? name.substring(0, 64) + "..." : name)
                    + "' is not a file name");
        }
        Path path;
        try {
            path = ScratchSpace.HOME.resolve(name).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("'" + name + "' is not a file name");
        }
        if (!ScratchSpace.holds(path)) {
            throw new IllegalArgumentException(name + " is outside the scratch space: files live under "
                    + ScratchSpace.HOME + " (the working directory) and " + ScratchSpace.TMP);
        }
        return path;
    }

    private byte[] read(Path path) throws IOException {
        try (SeekableByteChannel channel = space.open(path, true, false, false, false, false, false)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (channel.read(buffer.clear()) > 0) {
                bytes.write(buffer.array(), 0, buffer.position());
            }
            return bytes.toByteArray();
        }
    }

    private void write(Path path, byte[] content, boolean append) throws IOException {
        try (SeekableByteChannel channel = space.open(path, false, true, append, !append, true, false)) {
            channel.write(ByteBuffer.wrap(content));
        }
    }

    private static String success(Object value) {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("ok", true);
        reply.put("value", value);
        return WireCodec.encode(reply);
    }

    private static String failure(String code, String message) {
        return WireCodec.encode(Map.of("ok", false, "code", code, "message", message));
    }
}
