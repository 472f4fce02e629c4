package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.spec.McpSchema.Tool;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.wire.WireCodec;

/**
 * The operator's package folder (issue 12), filled here by hand the way an install leaves it (generations and
 * a {@code current} file): code imports what is installed and allowed, reads it at {@code /site-packages}
 * and nothing else, and an install while the server runs reaches the next call. The ImportError tells
 * "not allowed", "installed but not allowed", "not installed", "no network" and "needs native code" apart.
 */
class PackagesIT {
    private static final Path PACKAGES = SandboxServer.PROJECT_ROOT.resolve("target/it-packages");
    private static final Path SECRET = SandboxServer.PROJECT_ROOT.resolve("target/it-packages-secret.txt");
    private static SandboxServer server;
    private static final List<List<Tool>> toolListChanges = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws IOException {
        deleteTree(PACKAGES);
        Files.createDirectories(PACKAGES);
        Files.writeString(SECRET, "PACKAGE-FOLDER-SECRET");
        generation(1, "VALUE = 1\n");
        Files.createSymbolicLink(PACKAGES.resolve("gen-1/escape-link"), SECRET);
        server = SandboxServer.start(spec -> spec.toolsChangeConsumer(toolListChanges::add), "--workers=1",
                "--packages.dir=" + PACKAGES, "--imports.allow=tinypkg,otherpkg,jmespath_not_installed,os");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Writes generation n holding tinypkg, and makes it current with one rename, as an install does. */
    private static void generation(int n, String body) throws IOException {
        Path pkg = Files.createDirectories(PACKAGES.resolve("gen-" + n + "/tinypkg"));
        Files.writeString(pkg.resolve("__init__.py"), body);
        makeCurrent(n);
    }

    private static void makeCurrent(int n) throws IOException {
        Path next = Files.writeString(PACKAGES.resolve("current.next"), "gen-" + n + "\n");
        Files.move(next, PACKAGES.resolve("current"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static Map<String, Object> run(String code) {
        return server.python(code);
    }

    @Test
    void anInstalledAllowedPackageImportsFromTheMount() {
        Map<String, Object> result = run("import tinypkg, sys\nprint(tinypkg.VALUE, tinypkg.__file__, sys.path[-1])");
        assertEquals("success", result.get("status"), () -> WireCodec.encode(result));
        assertTrue(((String) result.get("stdout")).endsWith(" /site-packages/tinypkg/__init__.py /site-packages\n"),
                () -> WireCodec.encode(result));
        assertFalse(WireCodec.encode(result).contains(PACKAGES.toString()), "no host path");
    }

    @Test
    void anInstallWhileTheServerRunsReachesTheNextCall() throws IOException {
        generation(2, "VALUE = 2\n");
        assertEquals("2\n", run("import tinypkg\nprint(tinypkg.VALUE)").get("stdout"));
        generation(1, "VALUE = 1\n");
        assertEquals("1\n", run("import tinypkg\nprint(tinypkg.VALUE)").get("stdout"));
    }

    @Test
    void theDescriptionListsInstalledPackagesAndFollowsAnInstall() throws Exception {
        assertTrue(description().contains("; installed packages: tinypkg."), description());
        assertTrue(description().contains("Timeout: 30 s unless `timeout` says otherwise, at most 300 s."), description());
        Path other = Files.createDirectories(PACKAGES.resolve("gen-3/otherpkg"));
        Files.writeString(other.resolve("__init__.py"), "NAME = 'other'\n");
        Files.createDirectories(PACKAGES.resolve("gen-3/tinypkg"));
        Files.writeString(PACKAGES.resolve("gen-3/tinypkg/__init__.py"), "VALUE = 1\n");
        int changesBefore = toolListChanges.size();
        makeCurrent(3);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (toolListChanges.size() == changesBefore && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertTrue(toolListChanges.size() > changesBefore, "the client was told the tool list changed");
            assertTrue(description().contains("; installed packages: otherpkg, tinypkg."), description());
            assertEquals("other\n", run("import otherpkg\nprint(otherpkg.NAME)").get("stdout"));
        } finally {
            makeCurrent(1);
        }
    }

    private static String description() {
        return server.client.listTools().tools().stream().filter(t -> t.name().equals("execute_code"))
                .findFirst().orElseThrow().description();
    }

    @Test
    void importErrorsSayWhyAndWhatToDoInstead() {
        assertEquals("ImportError: import of 'tabulate' is not allowed in this sandbox; execute_code's description"
                + " lists the modules this sandbox allows", error(run("import tabulate")));
        assertEquals("ModuleNotFoundError: 'jmespath_not_installed' is allowed but not installed in this sandbox;"
                + " the operator can install the package that provides it with bin/python-sandbox-mcp install",
                error(run("import jmespath_not_installed")));
        assertEquals("ImportError: 'numpy' needs native code, which this sandbox cannot run: only pure-Python"
                + " packages can be installed; use lists with math and statistics instead", error(run("import numpy")));
        assertEquals("ImportError: import of 'requests' is not allowed in this sandbox: there is no network here; pass"
                + " the data in with the call instead (execute_code's `files` places files in the working directory,"
                + " and `stdin` is what input() reads)", error(run("import requests")));
    }

    /** Installed is not allowed (README, "Packages"): the refusal names the setting, and validate_code says the same. */
    @Test
    @SuppressWarnings("unchecked")
    void anInstalledPackageTheProfileDoesNotAllowIsRefusedNamingImportsAllow() throws IOException {
        for (String name : new String[] {"tinypkg", "unallowedpkg"}) {
            Path pkg = Files.createDirectories(PACKAGES.resolve("gen-4/" + name));
            Files.writeString(pkg.resolve("__init__.py"), "VALUE = 4\n");
        }
        makeCurrent(4);
        try {
            String refusal = "import of 'unallowedpkg' is not allowed in this sandbox: 'unallowedpkg' is installed, but"
                    + " the import profile does not allow it; the operator can allow it by adding unallowedpkg to the"
                    + " setting imports.allow";
            assertEquals("ImportError: " + refusal, error(run("import unallowedpkg")));
            Map<String, Object> report = (Map<String, Object>) server.call("validate_code",
                    Map.of("code", "import unallowedpkg")).structuredContent();
            List<Map<String, Object>> errors = (List<Map<String, Object>>) report.get("errors");
            assertEquals(List.of(refusal), errors.stream().map(e -> e.get("message")).toList(), report::toString);
        } finally {
            makeCurrent(1);
        }
    }

    @Test
    void attackWriteIntoThePackageFolder() {
        Map<String, Object> result = run("""
                import os
                for attempt in (lambda: open('/site-packages/tinypkg/__init__.py', 'w'),
                                lambda: open('/site-packages/tinypkg/evil.py', 'x'),
                                lambda: os.mkdir('/site-packages/evil'),
                                lambda: os.remove('/site-packages/tinypkg/__init__.py')):
                    try:
                        attempt()
                        print('allowed')
                    except OSError as e:
                        print(type(e).__name__)
                """);
        assertEquals("PermissionError\nPermissionError\nPermissionError\nPermissionError\n", result.get("stdout"),
                () -> WireCodec.encode(result));
        assertEquals(List.of("__init__.py"), List.of(PACKAGES.resolve("gen-1/tinypkg").toFile().list()));
    }

    @Test
    void attackReadOutOfThePackageFolder() {
        Map<String, Object> result = run(("""
                import os
                for path in ('{SECRET}', '/site-packages/escape-link', '/site-packages/../{SECRET}',
                             '/site-packages/tinypkg/../../../../../../{SECRET}', '/etc/passwd'):
                    try:
                        print(open(path).read())
                    except OSError as e:
                        print(type(e).__name__)
                try:
                    print(os.listdir('/'))
                except OSError as e:
                    print(type(e).__name__)
                print(sorted(os.listdir('/site-packages')))
                """).replace("{SECRET}", SECRET.toString()));
        String stdout = (String) result.get("stdout");
        assertFalse(WireCodec.encode(result).contains("PACKAGE-FOLDER-SECRET"), stdout);
        // Judged by what was read. A host path is refused (PermissionError), or, where the project lies under /tmp,
        // missing from the guest's own /tmp (FileNotFoundError); the planted link counts as missing.
        List<String> lines = List.of(stdout.split("\n"));
        assertEquals(7, lines.size(), stdout);
        assertEquals("FileNotFoundError", lines.get(1), "the planted symlink: " + stdout);
        for (String line : lines.subList(0, 6)) {
            assertTrue(line.equals("PermissionError") || line.equals("FileNotFoundError"), stdout);
        }
        assertEquals("PermissionError", lines.get(5), "listing / is refused: " + stdout);
        assertEquals("['escape-link', 'tinypkg']", lines.get(6));
    }

    private static String error(Map<String, Object> result) {
        return String.valueOf(result.get("error_message"));
    }

    /** Deletes a folder tree left by an earlier run; symlinks in it are deleted, not followed. */
    static void deleteTree(Path root) throws IOException {
        if (Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (var paths = Files.walk(root)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
