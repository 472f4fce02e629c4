package dev.pysandbox.bytecode;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Stream;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;

/**
 * Has GraalPy compile a folder of Python modules to bytecode files ({@code .pyc}) once, so that contexts
 * import them without compiling source.
 *
 * <p>Why: GraalPy 25.2 keeps the code of a module loaded from a bytecode file in a cache its engine shares
 * with every context, and never drops it; a module loaded from source is compiled again, into new call
 * targets, by every fresh context. GraalPy ships its standard library as source only and a sandboxed context
 * cannot write, so without this step every call paid for compiling {@code csv}, {@code json},
 * {@code statistics} and the rest anew (BENCHMARKS.md, "Bytecode files").
 *
 * <p>The files use GraalPy's own cache tag and the default validation, by the source's time and size. Not the
 * hash-based kind, which would not care about unpacking times: GraalPy 25.2 keys the code of a hash-based file
 * by the wrong eight bytes, so when it reads the file again (to trace code, {@code sys.settrace}) it finds a
 * "header mismatch" and the call fails. The folders never change once compiled (a language home is unpacked
 * per GraalPy version, a package generation is never changed once in use), so the times stay valid.
 * Compilation runs in a context of its own that may write the folder; it runs no guest code.
 */
public final class BytecodeFolder {
    /** Written last, naming what compiled the folder and how; a folder with a current stamp is not compiled again. */
    static final String STAMP = ".pysandbox-bytecode";
    /** How the files are validated, in the stamp: a folder compiled another way is compiled again. */
    private static final String VALIDATION = "timestamp";
    private static final String LOCK = ".pysandbox-bytecode.lock";
    /**
     * One monitor per folder, for the threads of this JVM: a file lock is held by the whole JVM, so a second thread
     * asking for it gets {@code OverlappingFileLockException} instead of waiting (a fresh machine's first build
     * failed so, two test classes compiling the standard library at once, and both ran it from source).
     */
    private static final ConcurrentMap<Path, Object> IN_THIS_JVM = new ConcurrentHashMap<>();

    /** What became of a folder: it already had its bytecode, got it now, or could not get it (and runs from source). */
    public sealed interface Outcome {
        record AlreadyCompiled() implements Outcome {
        }

        record Compiled(int files, long millis) implements Outcome {
        }

        record Failed(String reason) implements Outcome {
        }
    }

    private static final Source COMPILE = Source.create("python", """
            import compileall, py_compile, re, sys
            def compile_folder(folder):
                ok = compileall.compile_dir(folder, quiet=2, workers=1,
                        invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP,
                        rx=re.compile(r'[/\\\\](test|tests|idlelib|tkinter|turtledemo)[/\\\\]'))
                return (bool(ok), sys.implementation.cache_tag)
            compile_folder
            """);

    private BytecodeFolder() {
    }

    /**
     * Compiles every module under {@code folder} unless its stamp says this GraalPy did already. Safe to call
     * from several processes and threads at once: they take turns on a lock file (threads of one JVM first on a
     * monitor), and the later ones find the stamp.
     *
     * @param graalPy the GraalPy that will read the files ({@link #version}); another version compiles anew
     */
    public static Outcome ensure(Path folder, String graalPy) {
        return withLock(folder, graalPy, false);
    }

    /**
     * Compiles every module under {@code folder}, whatever its stamp says: for a folder whose modules just
     * changed (a package generation copied from the one before and then changed).
     */
    public static Outcome compile(Path folder, String graalPy) {
        return withLock(folder, graalPy, true);
    }

    private static Outcome withLock(Path folder, String graalPy, boolean force) {
        if (!Files.isDirectory(folder)) {
            return new Outcome.Failed("no folder " + folder);
        }
        Object turn = IN_THIS_JVM.computeIfAbsent(folder.toAbsolutePath().normalize(), f -> new Object());
        synchronized (turn) {
            return underFileLock(folder, graalPy, force);
        }
    }

    private static Outcome underFileLock(Path folder, String graalPy, boolean force) {
        try (FileChannel channel = FileChannel.open(folder.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            Path stamp = folder.resolve(STAMP);
            if (!force && Files.isRegularFile(stamp) && Files.readString(stamp).strip().equals(graalPy + " " + VALIDATION)) {
                return new Outcome.AlreadyCompiled();
            }
            Files.deleteIfExists(stamp);
            if (force) {
                deleteBytecode(folder); // files of modules since removed would linger beside the new ones
            }
            long start = System.nanoTime();
            String failure = compile(folder);
            if (failure != null) {
                return new Outcome.Failed(failure);
            }
            Files.writeString(stamp, graalPy + " " + VALIDATION + "\n");
            return new Outcome.Compiled(count(folder), (System.nanoTime() - start) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            return new Outcome.Failed(e.toString());
        }
    }

    /** @return null when every module compiled, else why not */
    private static String compile(Path folder) {
        try (Context context = Context.newBuilder("python")
                .allowIO(IOAccess.ALL)
                .option("engine.WarnInterpreterOnly", "false")
                .build()) {
            Value result = context.eval(COMPILE).execute(folder.toAbsolutePath().toString());
            return result.getArrayElement(0).asBoolean() ? null
                    : "some modules did not compile (GraalPy " + result.getArrayElement(1).asString() + ")";
        } catch (PolyglotException e) {
            return "compileall failed: " + e.getMessage();
        }
    }

    /** The GraalPy an engine runs, as a stamp names it. */
    public static String version(Engine engine) {
        return "GraalPy " + engine.getLanguages().get("python").getVersion();
    }

    /** The GraalPy on this class path, as a stamp names it. */
    public static String version() {
        try (Engine engine = Engine.newBuilder("python").option("engine.WarnInterpreterOnly", "false").build()) {
            return version(engine);
        }
    }

    /**
     * Deletes every bytecode file under {@code folder}, and the {@code __pycache__} folders that held them: a
     * package whose files were removed must leave no folder behind, or Python imports it as an empty namespace
     * package.
     */
    public static void deleteBytecode(Path folder) throws IOException {
        List<Path> caches;
        try (Stream<Path> paths = Files.walk(folder)) {
            caches = paths.filter(p -> p.getFileName().toString().equals("__pycache__") && Files.isDirectory(p)).toList();
        }
        for (Path cache : caches) {
            try (Stream<Path> files = Files.walk(cache)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    private static int count(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return (int) files.filter(f -> f.getFileName().toString().endsWith(".pyc")).count();
        }
    }
}
