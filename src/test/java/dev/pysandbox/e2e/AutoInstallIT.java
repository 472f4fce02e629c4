package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.wire.WireCodec;

/**
 * Auto-install ({@code packages.auto-install=true}): importing an allowed but missing module the server
 * knows ({@code toolz}, here a wheel this test builds, found by pip in the test's own folder) fails at once
 * with "retry", the server installs it in the background, and a later call imports it. A name the server does
 * not know is never installed.
 */
class AutoInstallIT {
    private static final Path WHEELS = SandboxServer.PROJECT_ROOT.resolve("target/it-auto-wheels");
    private static final Path PACKAGES = SandboxServer.PROJECT_ROOT.resolve("target/it-auto-packages");
    private static SandboxServer server;

    @BeforeAll
    static void start() throws IOException {
        PackagesIT.deleteTree(PACKAGES);
        Files.createDirectories(WHEELS);
        PackageInstallIT.wheel(WHEELS, "toolz", Map.of("toolz/__init__.py",
                "SOURCE = 'the test wheel'\n".getBytes(StandardCharsets.UTF_8)));
        server = SandboxServer.start(Map.of("PIP_NO_INDEX", "1", "PIP_FIND_LINKS", WHEELS.toString(),
                "PIP_CONFIG_FILE", "/dev/null"), "--workers=1", "--packages.dir=" + PACKAGES,
                "--packages.auto-install=true", "--imports.allow=toolz,madeup_module");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void anAllowedKnownModuleIsInstalledWhileTheCallFailsFast() throws InterruptedException {
        Map<String, Object> first = server.python("import toolz");
        assertEquals("execution_error", first.get("status"), () -> WireCodec.encode(first));
        assertEquals("ModuleNotFoundError: 'toolz' is not installed yet: the server is installing the package that"
                + " provides it; retry in a few seconds", first.get("error_message"));
        assertEquals(List.of("toolz"), first.get("installing"));
        assertTrue((double) first.get("execution_time") < 5, "the call did not wait for the install");

        Map<String, Object> later = null;
        for (int i = 0; i < 60; i++) {
            Thread.sleep(2000);
            later = server.python("import toolz\nprint(toolz.SOURCE)");
            if ("success".equals(later.get("status"))) {
                break;
            }
        }
        Map<String, Object> last = later;
        assertEquals("the test wheel\n", last.get("stdout"), () -> WireCodec.encode(last));
        assertTrue(Files.exists(PACKAGES.resolve("current")), "installed into the package folder");
    }

    @Test
    void aModuleTheServerDoesNotKnowIsNeverInstalled() {
        Map<String, Object> result = server.python("import madeup_module");
        assertTrue(String.valueOf(result.get("error_message")).startsWith(
                "ModuleNotFoundError: 'madeup_module' is allowed but not installed"), () -> WireCodec.encode(result));
        assertEquals(null, result.get("installing"));
    }
}
