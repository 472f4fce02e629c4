package dev.pysandbox.worker;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.io.FileSystem;
import org.graalvm.polyglot.io.IOAccess;

import dev.pysandbox.bytecode.BytecodeFolder;
import dev.pysandbox.files.ReadOnlyFolder;
import dev.pysandbox.files.SandboxFileSystem;
import dev.pysandbox.files.ScratchSpace;
import dev.pysandbox.files.TimeZones;
import dev.pysandbox.packages.PackageFolder;
import dev.pysandbox.polyglot.LockedDownContext;

/**
 * Builds locked-down GraalPy contexts on one shared {@link Engine}. Sharing the engine is what makes a new
 * context cost a fraction of a second instead of the ten seconds a first context costs.
 *
 * <p>The settings are the tightest the community edition accepts ({@link LockedDownContext}, shared with
 * JavaScript's contexts). The only file system is {@link SandboxFileSystem}:
 * the standard library and the operator's packages read-only, and the context's own scratch files in memory.
 * None of this is the security boundary on its own: the worker process is.
 */
final class SandboxContexts implements AutoCloseable {
    private final Engine engine;
    private final Prelude prelude = new Prelude();
    /** The recent snippets of the engine's fresh contexts, whose compiled code they share. */
    private final SharedCode sharedCode = new SharedCode();
    private final WorkerSettings settings;
    /** The standard library, shown read-only to every context at its own path. */
    private final ReadOnlyFolder languageHome;
    /** The host's time zone database, shown read-only to every context; null when the host has none. */
    private final ReadOnlyFolder timeZones = timeZoneDatabase();
    /** The package generation a new context should show, if any: read for every context. */
    private final Supplier<Optional<Path>> packages;
    /** The door to the operator's tools (code mode), handed to every context's prelude. */
    private final ToolBridge tools;
    /** The door to the worker's renderer (charts), handed to every context's prelude. */
    private final ChartBridge charts;
    /** The sandbox's own packages ({@link ChartLibrary}), shown read-only to every context; null when unavailable. */
    private final ReadOnlyFolder library;
    /**
     * The package generation last used, its file system, and the import rule of the contexts that show it (its
     * refusals know which packages are installed); new ones when an install switches generations. The rule is
     * null for the unrestricted profile, which has none.
     */
    private Path packageGeneration;
    private ReadOnlyFolder packageFolder;
    private ImportRule importRule;
    /** See {@link #releaseUnusedCode}. */
    private CodeRootCache codeRoots;

    SandboxContexts(WorkerSettings settings, ToolBridge tools, ChartBridge charts) {
        this(settings, settings.packagesDir().isEmpty() ? Optional::empty
                : new PackageFolder(Path.of(settings.packagesDir()))::current, tools, charts);
    }

    /**
     * @param packages the package generation each new context shows (the installer's check passes its own)
     * @param tools    the bridge to the operator's tools the contexts' code may call
     * @param charts   the bridge to the renderer the contexts' figures are drawn by
     */
    SandboxContexts(WorkerSettings settings, Supplier<Optional<Path>> packages, ToolBridge tools, ChartBridge charts) {
        this.settings = settings;
        this.packages = packages;
        this.tools = tools;
        this.charts = charts;
        this.importRule = importRule(Set.of());
        this.engine = Engine.newBuilder("python")
                .sandbox(SandboxPolicy.CONSTRAINED)
                .out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream())
                .option("engine.WarnInterpreterOnly", "false")
                .build();
        this.languageHome = languageHome();
        this.library = library();
    }

    /** The sandbox's own packages, unpacked beside GraalPy's resources and compiled; null when they cannot be. */
    private ReadOnlyFolder library() {
        String cache = System.getProperty("polyglot.engine.userResourceCache");
        Path root = Path.of(cache != null ? cache : System.getProperty("java.io.tmpdir"));
        Optional<Path> folder = ChartLibrary.prepare(root, BytecodeFolder.version(engine));
        try {
            return folder.isEmpty() ? null : new ReadOnlyFolder(SandboxFileSystem.LIBRARY, folder.get());
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The standard library's folder, which every context's file system must show read-only. Learned once
     * from a context without any file system, which GraalVM lets read it.
     *
     * <p>Why not {@link FileSystem#allowInternalResourceAccess}, which serves the language home by itself:
     * it serves it <em>writable</em> (measured: a guest planted {@code json/evil_planted.py} in the unpacked
     * standard library, where every later context of every worker would have imported it).
     */
    private ReadOnlyFolder languageHome() {
        Path prefix;
        try (Context probe = builder(new CallStreams()).allowIO(IOAccess.NONE).build()) {
            prefix = Path.of(probe.eval("python", "__import__('sys').prefix").asString());
            releaseUnusedCode(probe);
        }
        compileStandardLibrary(prefix.resolve("lib"));
        try {
            return new ReadOnlyFolder(prefix, prefix);
        } catch (IOException e) {
            throw new IllegalStateException("cannot find GraalPy's standard library", e);
        }
    }

    /**
     * Lets the engine drop the compiled code of functions no context uses any more, which GraalPy 25.2 keeps for
     * ever ({@link CodeRootCache}). A worker that cannot still serves, and says why on stderr: its sessions and
     * calls then grow its heap until {@code worker.max-calls} replaces it.
     */
    private void releaseUnusedCode(Context probe) {
        switch (CodeRootCache.install(probe)) {
            case CodeRootCache.Outcome.Installed installed -> codeRoots = installed.cache();
            case CodeRootCache.Outcome.Absent absent -> {
            }
            case CodeRootCache.Outcome.Failed failed ->
                    System.err.println("worker: the compiled code of ended contexts is kept (" + failed.reason() + ")");
        }
    }

    /** The engine's cache of compiled code that lets go of what no context uses, or null on a GraalPy without the leak. */
    CodeRootCache codeRoots() {
        return codeRoots;
    }

    /** The host's time zone database as contexts see it ({@link TimeZones}), or null when it has none. */
    private static ReadOnlyFolder timeZoneDatabase() {
        try {
            Optional<Path> database = TimeZones.hostDatabase();
            return database.isEmpty() ? null : new ReadOnlyFolder(SandboxFileSystem.TIME_ZONES, database.get());
        } catch (IOException e) {
            return null; // gone since it was found: as if the host had none
        }
    }

    /**
     * Gives the standard library its bytecode files, once per language home: contexts then share its compiled
     * code instead of compiling it again each (BENCHMARKS.md, "Bytecode files"). A worker that cannot still
     * serves, slower, and says why on stderr.
     */
    private void compileStandardLibrary(Path lib) {
        switch (BytecodeFolder.ensure(lib, BytecodeFolder.version(engine))) {
            case BytecodeFolder.Outcome.AlreadyCompiled done -> {
            }
            case BytecodeFolder.Outcome.Compiled compiled -> System.err.println("worker: compiled the standard library to "
                    + compiled.files() + " bytecode files in " + compiled.millis() + " ms");
            case BytecodeFolder.Outcome.Failed failed -> System.err.println("worker: the standard library runs from "
                    + "source, every context compiling it anew: " + failed.reason());
        }
    }

    /**
     * Builds a context, starts Python in it, installs the policy layers and the runner: all but user code.
     *
     * @param preload whether to import the configured modules too (see {@link WorkerSettings#preload()})
     */
    PreparedContext prepare(boolean preload) {
        CallStreams streams = new CallStreams();
        ReadOnlyFolder packageFiles;
        Path generation;
        ImportRule rule;
        synchronized (this) {
            packageFiles = packageFolder();
            generation = packageGeneration;
            rule = importRule;
        }
        SandboxFileSystem files = new SandboxFileSystem(languageHome, settings.files().newScratchSpace(), packageFiles,
                timeZones, library);
        Context context = builder(streams)
                .allowIO(IOAccess.newBuilder().fileSystem(files).build())
                .build();
        try {
            GuestRunner runner = prelude.install(context, new Prelude.Settings(rule, settings.strictBuiltins(),
                    preload ? settings.preload() : List.of(),
                    packageFiles == null ? "" : SandboxFileSystem.PACKAGES.toString(),
                    settings.autoInstall(), timeZones == null ? "" : SandboxFileSystem.TIME_ZONES.toString(),
                    Prelude.Codecs.SHARED, tools, charts,
                    library == null ? "" : SandboxFileSystem.LIBRARY.toString()), sharedCode);
            return new PreparedContext(context, streams, runner, generation, files.scratch(), files);
        } catch (RuntimeException e) {
            context.close(true);
            throw e;
        }
    }

    /** Every setting of a sandbox context but its file system. */
    private Context.Builder builder(CallStreams streams) {
        return LockedDownContext.builder("python", engine, streams.stdin, streams.stdout, streams.stderr);
    }

    /**
     * The package generation in use now, as the folder a context shows, or null when nothing is installed.
     * Read for every context, so that an install reaches the next context without a restart. Called under
     * this object's lock, which guards the three fields.
     */
    private ReadOnlyFolder packageFolder() {
        Optional<Path> generation = packages.get();
        if (generation.isEmpty()) {
            if (packageGeneration != null) {
                importRule = importRule(Set.of());
            }
            packageGeneration = null;
            packageFolder = null;
        } else if (!generation.get().equals(packageGeneration)) {
            try {
                packageFolder = new ReadOnlyFolder(SandboxFileSystem.PACKAGES, generation.get());
                packageGeneration = generation.get();
                importRule = importRule(PackageFolder.modulesIn(packageGeneration));
            } catch (IOException e) {
                packageFolder = null; // removed between the check and now: as if nothing were installed
                packageGeneration = null;
                importRule = importRule(Set.of());
            }
        }
        return packageFolder;
    }

    /** The import rule of contexts that show these installed modules; null for the unrestricted profile. */
    private ImportRule importRule(Set<String> installed) {
        return settings.imports().unrestrictedImports() ? null : new ImportRule(settings.imports(), installed);
    }

    String implementationName() {
        return engine.getImplementationName();
    }

    @Override
    public void close() {
        engine.close(true);
    }

    /**
     * A context ready for user code: its streams, its installed runtime, the package generation it shows (null
     * for none), its scratch space (the working directory and /tmp), and its file system, which shows that space
     * (Python's; null for a context that reaches its scratch space only through a bridge, JavaScript's).
     */
    record PreparedContext(Context context, CallStreams streams, GuestRunner runner, Path packages,
            ScratchSpace scratch, SandboxFileSystem files) {
    }

    /** Whether the context shows the packages installed now; one built before an install does not. */
    boolean isCurrent(PreparedContext prepared) {
        Path now = packages.get().orElse(null);
        return Objects.equals(prepared.packages(), now);
    }
}
