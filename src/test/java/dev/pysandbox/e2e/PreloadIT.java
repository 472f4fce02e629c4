package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Ready contexts import the common modules (worker.preload) while the worker has a context to spare, so calls
 * at an agent's pace find them loaded; and what a call does to a preloaded module stays in its own context.
 */
class PreloadIT {
    private static final String LOADED = "import sys\nprint(all(m in sys.modules for m in ('json', 'statistics', 'csv', 'difflib')))";

    private static SandboxServer server;

    @BeforeAll
    static void start() {
        server = SandboxServer.start("--workers=1", SandboxServer.PRELOAD_AS_SHIPPED);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void callsAtAnAgentsPaceFindTheCommonModulesImported() throws InterruptedException {
        List<Object> seen = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            seen.add(server.python(LOADED).get("stdout"));
            Thread.sleep(2_500); // the model writes between calls; the worker builds the next contexts meanwhile
        }
        // The worker's first context is built plain so that it is ready sooner; later ones come preloaded.
        assertEquals(List.of("True\n", "True\n"), seen.subList(3, 5), seen::toString);
    }

    /** Attack: change a preloaded module in one call and hope the next call's interpreter shares it. */
    @Test
    void aPreloadedModuleChangedByOneCallIsFreshInTheNext() throws InterruptedException {
        assertEquals("", server.python("import json\njson.dumps = lambda *a, **k: 'poisoned'\njson.planted = 1").get("stdout"));
        Thread.sleep(2_500);
        assertEquals("False {\"a\": 1}\n", server.python("import json\nprint(hasattr(json, 'planted'), json.dumps({'a': 1}))").get("stdout"));
    }
}
