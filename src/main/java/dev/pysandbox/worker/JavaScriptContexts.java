package dev.pysandbox.worker;

import org.graalvm.polyglot.Context;

import dev.pysandbox.files.FileLimits;
import dev.pysandbox.files.ScratchSpace;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;
import dev.pysandbox.worker.javascript.JavaScriptEngine;

/**
 * Builds the worker's JavaScript contexts, each with its runtime installed, on one shared GraalJS engine
 * ({@link JavaScriptEngine}): the JavaScript side of what {@link SandboxContexts} does for Python.
 */
final class JavaScriptContexts implements AutoCloseable {
    /** Made by the first {@link #prepare}, on the thread that builds contexts: GraalJS starts only when needed. */
    private JavaScriptEngine engine;
    /** The door to the operator's tools (code mode), handed to every context's runtime. */
    private final ToolBridge tools;

    /** The limits of each context's scratch space ({@code files.max-bytes}, {@code files.max-count}). */
    private final FileLimits files;

    JavaScriptContexts(ToolBridge tools, FileLimits files) {
        this.tools = tools;
        this.files = files;
    }

    /**
     * A context ready for user code. It has no file system: its {@code files} object reaches its scratch space
     * through a bridge, and it shows no packages.
     */
    synchronized PreparedContext prepare() {
        if (engine == null) {
            engine = new JavaScriptEngine();
        }
        CallStreams streams = new CallStreams();
        ScratchSpace scratch = files.newScratchSpace();
        Context context = engine.newContext(streams.stdin, streams.stdout, streams.stderr);
        try {
            return new PreparedContext(context, streams, new JavaScriptRunner(engine.install(context, streams.stdout,
                    streams.stderr, tools, scratch)), null, scratch, null);
        } catch (RuntimeException e) {
            context.close(true);
            throw e;
        }
    }

    @Override
    public synchronized void close() {
        if (engine != null) {
            engine.close();
        }
    }
}
