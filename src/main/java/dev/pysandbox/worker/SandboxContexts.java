package dev.pysandbox.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.FileSystem;
import org.graalvm.polyglot.io.IOAccess;

import dev.pysandbox.packages.PackageFileSystem;
import dev.pysandbox.packages.PackageFolder;

/**
 * Builds locked-down GraalPy contexts on one shared {@link Engine}. Sharing the engine is what makes a new
 * context cost a fraction of a second instead of the ten seconds a first context costs.
 *
 * <p>The settings are the tightest the community edition accepts (measured; see shared/notes): the
 * CONSTRAINED policy, and every capability switched off explicitly because CONSTRAINED alone leaves threads,
 * polyglot access and host class lookup to the embedder. {@code IOAccess.NONE} still lets the stdlib import,
 * read-only; when the operator has installed packages, the only file system is {@link PackageFileSystem},
 * which shows their folder read-only. None of this is the security boundary on its own: the worker process is.
 */
final class SandboxContexts implements AutoCloseable {
    /** {@code HostAccess.NONE} is refused by CONSTRAINED; this is NONE without mutable target mappings. */
    private static final HostAccess NO_HOST_ACCESS = HostAccess.newBuilder().allowMutableTargetMappings().build();

    private final Engine engine;
    private final Source prelude;
    private final WorkerSettings settings;
    /** The package generation a new context should show, if any: read for every context. */
    private final Supplier<Optional<Path>> packages;
    /** The package generation last used and its file system; new ones when an install switches generations. */
    private Path packageGeneration;
    private PackageFileSystem packageFileSystem;

    SandboxContexts(WorkerSettings settings) {
        this(settings, settings.packagesDir().isEmpty() ? Optional::empty
                : new PackageFolder(Path.of(settings.packagesDir()))::current);
    }

    /** @param packages the package generation each new context shows (the installer's check passes its own) */
    SandboxContexts(WorkerSettings settings, Supplier<Optional<Path>> packages) {
        this.settings = settings;
        this.packages = packages;
        this.engine = Engine.newBuilder("python")
                .sandbox(SandboxPolicy.CONSTRAINED)
                .out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream())
                .option("engine.WarnInterpreterOnly", "false")
                .build();
        this.prelude = Source.newBuilder("python", readPrelude(), "<sandbox-prelude>").buildLiteral();
    }

    /**
     * Builds a context, starts Python in it, installs the policy layers and the runner: all but user code.
     *
     * @param preload whether to import the configured modules too (see {@link WorkerSettings#preload()})
     */
    PreparedContext prepare(boolean preload) {
        CallStreams streams = new CallStreams();
        PackageFileSystem packageFiles;
        Path generation;
        synchronized (this) {
            packageFiles = packageFileSystem();
            generation = packageGeneration;
        }
        Context context = Context.newBuilder("python")
                .engine(engine)
                .sandbox(SandboxPolicy.CONSTRAINED)
                .in(streams.stdin)
                .out(streams.stdout)
                .err(streams.stderr)
                .allowHostAccess(NO_HOST_ACCESS)
                .allowHostClassLookup(className -> false)
                .allowHostClassLoading(false)
                .allowNativeAccess(false)
                .allowCreateThread(false)
                .allowCreateProcess(false)
                .allowIO(packageFiles == null ? IOAccess.NONE
                        : IOAccess.newBuilder().fileSystem(FileSystem.allowInternalResourceAccess(packageFiles)).build())
                .allowEnvironmentAccess(EnvironmentAccess.NONE)
                .allowPolyglotAccess(PolyglotAccess.NONE)
                .allowInnerContextOptions(false)
                .allowExperimentalOptions(false)
                .allowValueSharing(false)
                .build();
        try {
            Value runner = context.eval(prelude).execute(settings.imports().encode(), settings.strictBuiltins(),
                    preload ? String.join(",", settings.preload()) : "",
                    packageFiles == null ? "" : PackageFileSystem.MOUNT.toString());
            return new PreparedContext(context, streams, runner, generation);
        } catch (RuntimeException e) {
            context.close(true);
            throw e;
        }
    }

    /**
     * The file system showing the package generation in use now, or null when nothing is installed. Read
     * for every context, so that an install reaches the next context without a restart. Called under this
     * object's lock, which guards the two fields.
     */
    private PackageFileSystem packageFileSystem() {
        Optional<Path> generation = packages.get();
        if (generation.isEmpty()) {
            packageGeneration = null;
            packageFileSystem = null;
        } else if (!generation.get().equals(packageGeneration)) {
            try {
                packageFileSystem = new PackageFileSystem(generation.get());
                packageGeneration = generation.get();
            } catch (IOException e) {
                packageFileSystem = null; // removed between the check and now: as if nothing were installed
                packageGeneration = null;
            }
        }
        return packageFileSystem;
    }

    String implementationName() {
        return engine.getImplementationName();
    }

    @Override
    public void close() {
        engine.close(true);
    }

    static String readPrelude() {
        try (InputStream in = SandboxContexts.class.getResourceAsStream("prelude.py")) {
            if (in == null) {
                throw new IllegalStateException("prelude.py missing from the worker's resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read prelude.py", e);
        }
    }

    /**
     * A context ready for user code: its streams, the prelude's runner function, and the package generation
     * it shows (null for none).
     */
    record PreparedContext(Context context, CallStreams streams, Value runner, Path packages) {
    }

    /** Whether the context shows the packages installed now; one built before an install does not. */
    boolean isCurrent(PreparedContext prepared) {
        Path now = packages.get().orElse(null);
        return java.util.Objects.equals(prepared.packages(), now);
    }
}
