package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** Real workers run inside the OS layer: under bubblewrap, with the resource limits set. */
class OsLayerIT {
    @Test
    void workersRunUnderBubblewrapWithResourceLimits() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/bwrap")), "bubblewrap is not installed here");
        String tag = "pysandbox.test.tag=" + UUID.randomUUID();
        try (SandboxServer server = SandboxServer.start("--workers=1", "--worker.os-sandbox=required",
                "--worker.jvm-options=-D" + tag)) {
            assertEquals("success", server.python("pass").get("status"));
            List<ProcessHandle> workers = SandboxServer.workersTagged(tag);
            assertEquals(1, workers.size());
            ProcessHandle worker = workers.get(0);
            String parent = worker.parent().flatMap(p -> p.info().command()).orElse("");
            assertTrue(parent.endsWith("bwrap"), "the worker's parent is bubblewrap, not " + parent);
            Map<String, Object> paths = server.python("import json, sys\nprint(json.__file__)\nprint(sys.prefix)");
            String stdout = (String) paths.get("stdout");
            assertTrue(stdout.startsWith("/tmp/python-sandbox/"), "module paths name the neutral mount: " + stdout);
            assertTrue(!stdout.contains(System.getProperty("user.home")), "no host home in module paths: " + stdout);
            String limits = Files.readString(Path.of("/proc", Long.toString(worker.pid()), "limits"));
            assertTrue(limits.matches("(?s).*Max core file size\\s+0\\s+0.*"), limits);
            assertTrue(limits.matches("(?s).*Max open files\\s+4096\\s+4096.*"), limits);
        }
    }
}
