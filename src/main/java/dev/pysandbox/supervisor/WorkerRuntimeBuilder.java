package dev.pysandbox.supervisor;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;

import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.execution.Language;
import dev.pysandbox.files.FolderTrees;
import dev.pysandbox.release.Release;
import dev.pysandbox.wire.WireCodec;
import dev.pysandbox.wire.WorkerCommand;
import dev.pysandbox.wire.WorkerEvent;

/**
 * Prepares {@code worker-runtime/} (see {@link WorkerRuntime}) at build time: links the worker JDK image and
 * trains an AOT cache for each {@link WorkerKind} by running a real worker through typical calls. The build copies
 * the compiler jars into {@code worker-runtime/compiler/} and the JIT workers' class path into
 * {@code worker-runtime/jit-lib/} before this runs ({@code pom.xml}).
 *
 * <p>It never fails the build: without JDK 25 or jlink the workers run interpreter-only, and without the
 * AOT cache they start slower; it says which and why. A build that stopped here would leave no server.
 */
public final class WorkerRuntimeBuilder {
    /** The JDK line GraalPy 25.0's optimizing runtime accepts: "greater or equal to 25 and smaller than 26". */
    static final int JIT_JDK = 25;

    /** Modules the worker needs: the SE platform, Unsafe for Truffle, and JVMCI for the compiler. */
    private static final String MODULES = "java.se,jdk.unsupported,jdk.management,jdk.internal.vm.ci,"
            + "jdk.zipfs,jdk.crypto.ec,jdk.localedata,jdk.charsets";

    /**
     * What a training worker runs: start-up, the standard imports, errors and tracebacks, stdin, results and
     * some arithmetic, so the classes and methods of a typical call are in the cache.
     */
    /** One call of the training workload, in its language. */
    record TrainingCall(Language language, String code) {
    }

    static final List<String> PYTHON_TRAINING = List.of(
            "print(1)",
            "import json, math, re, collections, itertools, functools, datetime, decimal, fractions, statistics\n"
                    + "print(json.dumps({'pi': math.pi, 'now': str(datetime.date(2026, 1, 1))}))",
            "import random, string, textwrap, hashlib, base64, struct, uuid, heapq, bisect, array, dataclasses, enum, typing\n"
                    + "print(hashlib.sha256(b'x').hexdigest(), base64.b64encode(b'x'), random.Random(1).random())",
            "import sys\nname = sys.stdin.readline()\nprint('hello', name, file=sys.stderr)",
            "def f(n):\n    return n if n < 2 else f(n - 1) + f(n - 2)\nresult = [f(18), sum(range(100000)), ','.join(str(i) for i in range(10000))]",
            "raise ValueError('training')",
            "import os",
            "1/0",
            "import sys\nsys.exit(3)",
            "d = {i: i * i for i in range(100000)}\nprint(len(d), sorted(d)[:3])",
            "print('x' * 100000)");
    /** JavaScript's share: GraalJS's classes are in the cache too, so a worker's first JavaScript call finds them. */
    static final List<String> JAVASCRIPT_TRAINING = List.of(
            "console.log(1)",
            "const o = JSON.parse('{\"a\": [1, 2, {\"b\": 3}]}');\n"
                    + "console.log(o, [1, 2, 3].map(x => x * 2), new Map([['k', new Set([1])]]), 'text', 4.5, null);",
            "result = Array.from({length: 10000}, (_, i) => i * i).filter(x => x % 3).reduce((a, b) => a + b, 0);",
            "await new Promise(resolve => setTimeout(resolve, 5));\n"
                    + "console.error(String('2026-01-02'.match(/(\\d+)-(\\d+)/)), new Date(0).toISOString(), (1234.5).toFixed(1));",
            "class Item { constructor(n) { this.n = n; } }\nconsole.log([new Item(1)], `${'x'.repeat(3)}`.padStart(5));",
            "throw new TypeError('training')");
    static final List<TrainingCall> TRAINING_CALLS = java.util.stream.Stream.concat(
            PYTHON_TRAINING.stream().map(code -> new TrainingCall(Language.PYTHON, code)),
            JAVASCRIPT_TRAINING.stream().map(code -> new TrainingCall(Language.JAVASCRIPT, code))).toList();

    private final Path dir;

    public WorkerRuntimeBuilder(Path dir) {
        this.dir = dir;
    }

    /** {@code worker-runtime/} beside the server's jar (see {@link Release#home()}). */
    public static Path defaultDirectory() {
        return Release.home().resolve("worker-runtime");
    }

    /** How long the training worker may take in all before it is killed. */
    private static final long TRAINING_LIMIT_MINUTES = 10;

    /** @return always 0; what could not be prepared is reported on {@code out} */
    public int build(ServerConfig config, PrintStream out) throws IOException, InterruptedException {
        int feature = Runtime.version().feature();
        if (feature != JIT_JDK) {
            out.println("prepare-workers: JDK " + feature + " cannot run GraalPy 25.0's JIT (it needs JDK " + JIT_JDK
                    + "); workers will run interpreter-only on the server's Java");
            FolderTrees.delete(dir.resolve(WorkerRuntime.JDK_DIR));
            return 0;
        }
        if (WorkerRuntime.jars(dir.resolve(WorkerRuntime.COMPILER_DIR)).isEmpty()) {
            out.println("prepare-workers: WARNING no compiler jars in " + dir.resolve(WorkerRuntime.COMPILER_DIR)
                    + " (the Maven build copies them there); workers will run interpreter-only");
            return 0;
        }
        if (!linkJdk(out)) {
            out.println("prepare-workers: WARNING workers will run interpreter-only");
            return 0;
        }
        // One cache per kind of worker, the configured kind first: the JVM takes a cache only with the options
        // it was trained with, and a server started with the other worker.jit should start fast too.
        WorkerKind configured = WorkerKind.forJitSetting(config.jit());
        for (WorkerKind kind : List.of(configured, configured == WorkerKind.JIT ? WorkerKind.INTERPRETER : WorkerKind.JIT)) {
            if (!trainAotCache(WorkerLauncher.forConfig(config), kind, out)) {
                out.println("prepare-workers: WARNING no AOT cache for " + kind.label() + " workers; they will start slower");
            }
        }
        return 0;
    }

    private boolean linkJdk(PrintStream out) throws IOException {
        Path image = dir.resolve(WorkerRuntime.JDK_DIR);
        // What the image was linked from and with; a different JDK or module list means linking anew.
        String wanted = System.getProperty("java.home") + " " + Runtime.version() + " " + MODULES;
        Path stamp = dir.resolve("jdk.linked-from");
        if (Files.isRegularFile(stamp) && Files.readString(stamp).strip().equals(wanted)
                && Files.isExecutable(image.resolve("bin/java"))) {
            out.println("prepare-workers: worker JDK image is up to date (" + Runtime.version() + ")");
            return true;
        }
        FolderTrees.delete(image);
        ToolProvider jlink = ToolProvider.findFirst("jlink").orElse(null);
        if (jlink == null) {
            out.println("prepare-workers: this Java has no jlink (a JRE?); workers will run interpreter-only");
            return false;
        }
        out.println("prepare-workers: linking the worker JDK image into " + image);
        Files.deleteIfExists(stamp);
        int code = jlink.run(out, out, "--add-modules", MODULES, "--output", image.toString(),
                "--strip-debug", "--no-header-files", "--no-man-pages");
        if (code == 0) {
            Files.writeString(stamp, wanted + "\n");
        }
        return code == 0;
    }

    /**
     * Runs one worker with {@code -XX:AOTCacheOutput}: the JVM records what the worker loads and links while
     * it serves the training calls, and writes the cache when the worker exits. The worker runs without the
     * OS layer (it must write the cache) but is otherwise launched exactly as in service, because the JVM
     * only accepts the cache with the same class path and module options.
     */
    private boolean trainAotCache(WorkerLauncher launcher, WorkerKind kind, PrintStream out)
            throws IOException, InterruptedException {
        String name = kind.aotCache();
        Path cache = dir.resolve(name);
        Path stamp = dir.resolve(name + ".classpath");
        TrainedCache trained = new TrainedCache(cache, dir.resolve(name + ".trained-with"));
        WorkerRuntime runtime = WorkerRuntime.locate(dir, kind, WorkerLauncher.workerClassPath());
        if (runtime.kind() != kind) {
            out.println("prepare-workers: no " + kind.label() + " runtime to train on: " + runtime.description());
            return false;
        }
        String classPath = runtime.classPath();
        List<String> command = new ArrayList<>(launcher.trainingCommand(runtime));
        command.removeIf(option -> option.startsWith("-XX:AOTCache=")); // the old cache, if any, is not an input
        String trainingCommand = String.join(" ", command);
        List<Path> inputs = new ArrayList<>(WorkerRuntime.jars(dir.resolve(WorkerRuntime.COMPILER_DIR)));
        inputs.add(dir.resolve("jdk.linked-from"));
        for (String entry : classPath.split(File.pathSeparator)) {
            inputs.addAll(entry.endsWith(".jar") ? TrainedCache.jarAndLibraries(Path.of(entry)) : List.of(Path.of(entry)));
        }
        if (trained.isCurrent(trainingCommand, inputs)) {
            out.println("prepare-workers: " + kind.label() + " worker AOT cache is up to date");
            return true;
        }
        trained.forget();
        Files.deleteIfExists(stamp);
        command.add(1, "-XX:AOTCacheOutput=" + cache);
        out.println("prepare-workers: training the " + kind.label() + " worker AOT cache (about a minute)");
        Path log = dir.resolve(name + ".training.log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(launcher.resourceCache().toFile())
                .redirectError(log.toFile());
        WorkerLauncher.keepOnlyNeededEnvironment(builder.environment());
        Process worker = builder.start();
        // A worker that hangs would block the reads below, and the build with them.
        CompletableFuture.delayedExecutor(TRAINING_LIMIT_MINUTES, TimeUnit.MINUTES).execute(worker::destroyForcibly);
        try (OutputStream commands = worker.getOutputStream();
                BufferedReader events = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8))) {
            long id = 0;
            for (TrainingCall call : TRAINING_CALLS) {
                id++;
                String line = WireCodec.encode(new WorkerCommand.Execute(id, call.language(), call.code(), "training\n",
                        60_000, null, "<string>", null, null, null)) + "\n";
                commands.write(line.getBytes(StandardCharsets.UTF_8));
                commands.flush();
                if (!awaitResult(events, id)) {
                    out.println("prepare-workers: the training worker stopped early; see " + log);
                    return false;
                }
            }
        } catch (IOException | RuntimeException e) {
            out.println("prepare-workers: training failed (" + e + "); see " + log);
            return false;
        } finally {
            // Closing stdin ends the worker, and the JVM writes the cache on its way out.
            if (!worker.waitFor(TRAINING_LIMIT_MINUTES, TimeUnit.MINUTES)) {
                worker.destroyForcibly().waitFor();
            }
        }
        if (worker.exitValue() != 0 || !Files.isRegularFile(cache)) {
            out.println("prepare-workers: no AOT cache was written; see " + log);
            return false;
        }
        Files.writeString(stamp, WorkerRuntime.portable(dir, classPath) + "\n");
        trained.remember(trainingCommand);
        out.println("prepare-workers: " + kind.label() + " worker AOT cache written (" + Files.size(cache) / (1024 * 1024) + " MB)");
        return true;
    }

    private static boolean awaitResult(BufferedReader events, long id) throws IOException {
        for (String line = events.readLine(); line != null; line = events.readLine()) {
            if (line.startsWith("{")) {
                if (WireCodec.decode(line, WorkerEvent.class) instanceof WorkerEvent.Result result && result.id() == id) {
                    return true;
                }
            }
        }
        return false;
    }
}
