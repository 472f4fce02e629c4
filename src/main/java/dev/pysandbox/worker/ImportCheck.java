package dev.pysandbox.worker;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.graalvm.polyglot.PolyglotException;

import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.worker.SandboxContexts.PreparedContext;

/**
 * The installer's smoke test: imports modules of a package generation the way a call will, in a fresh
 * locked-down context built exactly as the workers build theirs, before that generation is switched in. A
 * package that needs something the sandbox refuses (native code, threads, files) fails here, not in a call.
 */
public final class ImportCheck {
    private ImportCheck() {
    }

    /** Each module that fails to import, with the error it raised; empty when all import. */
    public static Map<String, String> failures(Path generation, Collection<String> modules) {
        WorkerSettings settings = WorkerSettings.forImportCheck();
        Map<String, String> failures = new LinkedHashMap<>();
        try (SandboxContexts contexts = new SandboxContexts(settings, () -> Optional.of(generation),
                new ToolBridge(event -> { }), new ChartBridge(ChartLimits.DEFAULT))) {
            for (String module : modules) {
                PreparedContext prepared = contexts.prepare(false);
                try {
                    prepared.context().eval("python", "import " + module);
                } catch (PolyglotException e) {
                    failures.put(module, e.getMessage());
                } finally {
                    prepared.context().close(true);
                }
            }
        }
        return failures;
    }
}
