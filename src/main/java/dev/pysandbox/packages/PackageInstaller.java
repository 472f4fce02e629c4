package dev.pysandbox.packages;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Stream;

import dev.pysandbox.files.FolderTrees;
import dev.pysandbox.bytecode.BytecodeFolder;
import dev.pysandbox.release.Release;

/**
 * {@code install}, {@code uninstall} and {@code list} for the operator's package folder. A change never
 * touches the generation in use: it copies it into a new generation, changes that one, checks it, and only
 * then switches {@code current} to it, so running workers see the old set or the new one and a failed
 * install changes nothing.
 *
 * <p>Checks before the switch: pip installs wheels only (no package's build code runs here); no file of
 * native code may arrive (the sandbox refuses native code, so such a package could only fail later); and
 * every top-level module the change can have touched ({@link ChangedModules}) must import in a fresh sandbox
 * context.
 */
public final class PackageInstaller {
    /** An install or uninstall that was refused or failed; the message says why and that nothing changed. */
    public static final class RefusedException extends Exception {
        RefusedException(String message) {
            super(message + " Nothing was changed.");
        }
    }

    private static final List<String> NATIVE_SUFFIXES = List.of(".so", ".pyd", ".dylib", ".dll");

    private final PackageFolder folder;
    private final InstallerJvm pipJvm;
    private final BiFunction<Path, Collection<String>, Map<String, String>> importCheck;
    private final PrintStream out;

    /**
     * @param pipJvm      the JVM GraalPy's pip runs in
     * @param importCheck imports modules of a generation in a sandbox context; answers module → error for
     *                    those that fail (the worker's {@code ImportCheck})
     */
    public PackageInstaller(PackageFolder folder, InstallerJvm pipJvm,
            BiFunction<Path, Collection<String>, Map<String, String>> importCheck, PrintStream out) {
        this.folder = folder;
        this.pipJvm = pipJvm;
        this.importCheck = importCheck;
        this.out = out;
    }

    public void install(List<String> requirements) throws IOException, RefusedException {
        change(generation -> {
            out.println("Installing " + String.join(" ", requirements) + " with GraalPy's pip (wheels only)...");
            Path pureWheels = Files.createTempDirectory("pysandbox-pure-wheels");
            try (GraalPyPip pip = new GraalPyPip(System.err, pipJvm)) {
                pipInstall(pip, generation, requirements, pureWheels);
            } finally {
                FolderTrees.delete(pureWheels);
            }
            List<String> nativeFiles = nativeFiles(generation);
            if (!nativeFiles.isEmpty()) {
                throw new RefusedException("This needs native code, which the sandbox cannot run (found "
                        + String.join(", ", nativeFiles) + ").");
            }
        });
    }

    /**
     * Runs pip until it installs everything. When it finds no wheel for a package with a pure-Python fallback
     * (PyYAML, MarkupSafe), a pure wheel is made from the package's CPython wheel and pip runs again with it.
     */
    private void pipInstall(GraalPyPip pip, Path generation, List<String> requirements, Path pureWheels)
            throws IOException, RefusedException {
        CPythonWheels cpythonWheels = new CPythonWheels(pip::run, out);
        List<String> madePure = new ArrayList<>(requirements.stream().filter(CPythonWheels::hasPureFallback).toList());
        if (!madePure.isEmpty() && !cpythonWheels.makePure(madePure, pureWheels)) {
            madePure.clear(); // none to be had as CPython wheels either: pip says so below
        }
        while (true) {
            List<String> args = new ArrayList<>(List.of("install", "--target", generation.toString(), "--upgrade",
                    "--only-binary=:all:", "--no-compile", "--progress-bar", "off"));
            if (!madePure.isEmpty()) {
                args.addAll(List.of("--find-links", pureWheels.toString()));
            }
            args.addAll(requirements);
            CPythonWheels.PipRun run = pip.run(args);
            if (run.exitCode() == 0) {
                return;
            }
            Optional<String> fallback = CPythonWheels.missingWithFallback(run.output());
            if (fallback.isEmpty() || madePure.contains(fallback.get())
                    || !cpythonWheels.makePure(List.of(fallback.get()), pureWheels)) {
                throw new RefusedException("pip could not install " + String.join(" ", requirements) + " (exit code "
                        + run.exitCode() + "; its messages are above). Only pure-Python wheels (tagged py3-none-any)"
                        + " can be installed: a package with native code cannot run in this sandbox.");
            }
            madePure.add(fallback.get());
        }
    }

    public void uninstall(List<String> names) throws IOException, RefusedException {
        change(generation -> {
            for (String name : names) {
                Path distInfo = distInfo(generation, name).orElseThrow(() -> new RefusedException(
                        "'" + name + "' is not installed."));
                for (String line : Files.readAllLines(distInfo.resolve("RECORD"))) {
                    String file = line.split(",", 2)[0];
                    Path path = generation.resolve(file).normalize();
                    if (!file.isBlank() && path.startsWith(generation)) {
                        Files.deleteIfExists(path);
                    }
                }
                FolderTrees.delete(distInfo);
                out.println("Removed " + distInfo.getFileName().toString().replace(".dist-info", ""));
            }
            // Bytecode is not in RECORD: its folders would keep the package's folder, an importable namespace.
            BytecodeFolder.deleteBytecode(generation);
            removeEmptyFolders(generation);
        });
    }

    public void list() {
        Optional<Path> current = folder.current();
        if (current.isEmpty()) {
            out.println("No packages installed in " + folder.root());
            return;
        }
        out.println("Installed in " + current.get() + ":");
        PackageFolder.distributionsIn(current.get()).forEach(d -> out.println("  " + d));
        out.println("Modules code can import once allowed (imports.allow): "
                + String.join(", ", PackageFolder.modulesIn(current.get())));
    }

    private interface Change {
        void apply(Path generation) throws IOException, RefusedException;
    }

    private void change(Change change) throws IOException, RefusedException {
        Optional<Path> previous = folder.current();
        Path generation = folder.newGeneration();
        try {
            if (previous.isPresent()) {
                FolderTrees.copy(previous.get(), generation);
            }
            change.apply(generation);
            // Installed packages get bytecode files as the standard library does, so that every fresh context
            // shares their compiled code (BENCHMARKS.md, "Bytecode files"); without them they still run.
            String graalPy = BytecodeFolder.version();
            if (BytecodeFolder.compile(generation, graalPy) instanceof BytecodeFolder.Outcome.Failed failed) {
                out.println("Warning: the packages will run from source, compiled again by every call: " + failed.reason());
            }
            String checkedBy = Release.describe() + " on GraalPy " + graalPy;
            Collection<String> modules = ChangedModules.between(previous, generation, checkedBy);
            if (!modules.isEmpty()) {
                out.println(checking(modules, PackageFolder.modulesIn(generation).size() - modules.size()));
            }
            Map<String, String> failures = modules.isEmpty() ? Map.of() : importCheck.apply(generation, modules);
            if (!failures.isEmpty()) {
                StringBuilder message = new StringBuilder("These modules do not import in the sandbox:");
                failures.forEach((module, error) -> message.append("\n  ").append(module).append(": ").append(error));
                throw new RefusedException(message.toString());
            }
            ChangedModules.stamp(generation, checkedBy);
        } catch (IOException | RefusedException | RuntimeException e) {
            FolderTrees.delete(generation);
            throw e;
        }
        folder.switchTo(generation);
        folder.prune(previous);
        out.println("Done: " + folder.root().relativize(generation) + " is in use; running servers pick it up"
                + " with their next call.");
    }

    private static String checking(Collection<String> modules, int unchanged) {
        String others = unchanged == 0 ? ""
                : unchanged == 1 ? " (1 other module unchanged since its check)"
                : " (" + unchanged + " other modules unchanged since their check)";
        return "Checking that " + String.join(", ", modules) + " import" + (modules.size() == 1 ? "s" : "")
                + " in the sandbox" + others + "...";
    }

    private static Optional<Path> distInfo(Path generation, String name) throws IOException {
        String wanted = PackageFolder.distributionName(name);
        try (Stream<Path> entries = Files.list(generation)) {
            return entries.filter(entry -> entry.getFileName().toString().endsWith(".dist-info"))
                    .filter(entry -> PackageFolder.distributionOf(entry.getFileName().toString()).equals(wanted))
                    .findFirst();
        }
    }

    private static List<String> nativeFiles(Path generation) throws IOException {
        try (Stream<Path> paths = Files.walk(generation)) {
            return paths.filter(Files::isRegularFile)
                    .filter(path -> isNativeCode(path.getFileName().toString()))
                    .map(path -> generation.relativize(path).toString())
                    .sorted()
                    .toList();
        }
    }

    /** Whether a file is native code by its name: a shared library of some platform. */
    static boolean isNativeCode(String name) {
        return NATIVE_SUFFIXES.stream().anyMatch(name::endsWith);
    }

    private static void removeEmptyFolders(Path generation) throws IOException {
        List<Path> folders;
        try (Stream<Path> paths = Files.walk(generation)) {
            folders = paths.filter(Files::isDirectory).filter(path -> !path.equals(generation))
                    .sorted(Comparator.reverseOrder()).toList();
        }
        for (Path path : folders) {
            try (Stream<Path> entries = Files.list(path)) {
                if (entries.findAny().isEmpty()) {
                    Files.delete(path);
                }
            }
        }
    }
}
