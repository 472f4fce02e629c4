package dev.pysandbox.worker.javascript;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import dev.pysandbox.files.ScratchSpace;
import dev.pysandbox.polyglot.GuestText;
import dev.pysandbox.polyglot.LockedDownContext;

/**
 * Builds locked-down GraalJS contexts on one shared {@link Engine}, as {@code SandboxContexts} builds GraalPy's:
 * the CONSTRAINED policy, and every capability switched off explicitly (SECURITY.md, "JavaScript"). The context
 * has no file system at all ({@link IOAccess#NONE}), so every {@code import} and {@code import()} is refused; the
 * runtime ({@code runtime.js} and its concern files) removes the host's globals GraalJS adds and gives the Node
 * surface agents expect where it is pure computation (console, timers), and clear errors where it is not.
 *
 * <p>The options GraalJS accepts under CONSTRAINED are few: {@code js.java-package-globals},
 * {@code js.polyglot-builtin}, {@code js.top-level-await} and {@code js.global-arguments} are refused by the
 * policy, so the runtime deletes what they would have kept out, and code with top-level {@code await} runs as a
 * module. The options set here are the ones both GraalJS lines accept (25.2 for the interpreter-only workers,
 * 25.0 for the JIT workers). A new context on a warm engine costs 5 to 9 ms and the first about 0.9 s
 * (BENCHMARKS.md, "JavaScript"), so the worker keeps one ready.
 */
public final class JavaScriptEngine implements AutoCloseable {
    /** The runtime's concern files, joined in this order inside one function; {@code runtime.js} comes last. */
    private static final List<String> CONCERNS = List.of("timers.js", "refusals.js", "node.js", "tools.js", "files.js",
            "report.js", "runtime.js");

    private final Engine engine;
    private final Source console;
    private final Source runtime;
    private final JavaScriptSources sources = new JavaScriptSources();

    public JavaScriptEngine() {
        engine = Engine.newBuilder("js")
                .sandbox(SandboxPolicy.CONSTRAINED)
                .out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream())
                .option("engine.WarnInterpreterOnly", "false")
                .option("js.ecmascript-version", "2024")
                // The shell's and Nashorn's globals: reading and running files, printing past the console.
                .option("js.load", "false")
                .option("js.print", "false")
                .option("js.graal-builtin", "false")
                // The runtime's console writes as Node's does; GraalJS's own prints objects as [object Object].
                .option("js.console", "false")
                .option("js.text-encoding", "true")
                // Not js.performance: GraalJS 25.0 (the JIT workers') refuses it under CONSTRAINED, so node.js
                // defines `performance` itself, the same on both lines.
                .option("js.locale", "en-US")
                // A promise rejected with nobody to catch it fails the call, as it ends a Node process.
                .option("js.unhandled-rejections", "throw")
                .build();
        console = Source.newBuilder("js", GuestText.read(JavaScriptEngine.class, "console.js"), "<sandbox-console>")
                .cached(true).buildLiteral();
        // JSON as it was before any user code: a session's code may replace JSON.stringify, and the runtime's
        // reports and bridges must not call the guest's replacement.
        StringBuilder joined = new StringBuilder("(function () {\n'use strict';\n"
                + "const JSON = Object.freeze({ parse: globalThis.JSON.parse, stringify: globalThis.JSON.stringify });\n");
        for (String concern : CONCERNS) {
            joined.append(GuestText.read(JavaScriptEngine.class, concern)).append('\n');
        }
        joined.append("return installRuntime;\n})()");
        runtime = Source.newBuilder("js", joined.toString(), "<sandbox-runtime>").cached(true).buildLiteral();
    }

    /**
     * A context with nothing of the host ({@link LockedDownContext}) and no file system at all, its streams
     * forwarded to whatever call it serves.
     */
    public Context newContext(InputStream in, OutputStream out, OutputStream err) {
        return LockedDownContext.builder("js", engine, in, out, err).allowIO(IOAccess.NONE).build();
    }

    /**
     * Installs the runtime in a new context, before any user code. Throws what the context throws; the caller
     * closes the context then.
     *
     * @param out     the stream the context's stdout goes to (console.log, process.stdout.write)
     * @param err     the stream its stderr goes to
     * @param tools   the worker's door to the operator's tools (code mode): called (op, tool, paramsJson), it
     *                answers the supervisor's JSON reply
     * @param scratch the context's scratch space, which its {@code files} object reads and writes
     */
    public JavaScriptRuntime install(Context context, OutputStream out, OutputStream err, ProxyExecutable tools,
            ScratchSpace scratch) {
        ProxyExecutable write = arguments -> {
            byte[] text = arguments[1].asString().getBytes(StandardCharsets.UTF_8);
            try {
                (arguments[0].asInt() == 2 ? err : out).write(text);
            } catch (IOException e) {
                // The call's streams are in memory and do not fail; were one to, the text is dropped rather than a
                // host exception shown to the guest.
            }
            return null;
        };
        return new JavaScriptRuntime(context, sources,
                context.eval(runtime).execute(context.eval(console), write, tools, new ScratchFiles(scratch)));
    }

    @Override
    public void close() {
        engine.close(true);
    }
}
