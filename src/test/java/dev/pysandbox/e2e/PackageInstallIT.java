package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.files.TimeZones;

/**
 * {@code bin/python-sandbox-mcp install / list / uninstall} (issue 12) against a wheel folder this test
 * builds, with pip told to use nothing else (no index, no network, not the machine's pip configuration). A
 * server started before the install picks it up with its next call.
 */
class PackageInstallIT {
    private static final Path WHEELS = SandboxServer.PROJECT_ROOT.resolve("target/it-wheels");
    private static final Path PACKAGES = SandboxServer.PROJECT_ROOT.resolve("target/it-installed-packages");
    private static SandboxServer server;

    record Outcome(int exitCode, String output) {
    }

    @BeforeAll
    static void buildWheelsAndStartAServer() throws IOException {
        PackagesIT.deleteTree(PACKAGES);
        Files.createDirectories(WHEELS);
        wheel(WHEELS, "tinywheel", Map.of("tinywheel/__init__.py", "VALUE = 7\n".getBytes(StandardCharsets.UTF_8)));
        wheel(WHEELS, "secondwheel", Map.of("secondwheel.py", "VALUE = 8\n".getBytes(StandardCharsets.UTF_8)));
        wheel(WHEELS, "nativewheel", Map.of("nativewheel/__init__.py", new byte[0],
                "nativewheel/_speedups.so", new byte[] {0x7f, 'E', 'L', 'F'}));
        server = SandboxServer.start("--workers=1", "--packages.dir=" + PACKAGES, "--imports.allow=tinywheel,secondwheel,nativewheel");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void installListUseAndUninstallWhileAServerRuns() throws Exception {
        assertEquals("ModuleNotFoundError: 'tinywheel' is allowed but not installed in this sandbox; the operator can"
                + " install the package that provides it with bin/python-sandbox-mcp install",
                server.python("import tinywheel").get("error_message"));

        Outcome install = command("install", "tinywheel");
        assertEquals(0, install.exitCode(), install.output());
        assertTrue(install.output().contains("Successfully installed tinywheel-1.0"), install.output());
        assertTrue(install.output().contains("Checking that tinywheel imports in the sandbox..."), install.output());
        // pip's result and the import check only: none of the JVM's, Truffle's or GraalPy's warnings (InstallerJvm)
        assertTrue(install.output().lines().noneMatch(line -> line.startsWith("WARNING") || line.startsWith("[")),
                install.output());
        assertEquals("7\n", server.python("import tinywheel\nprint(tinywheel.VALUE)").get("stdout"),
                "the running server's next call sees the install");

        // The next install checks what it changed: tinywheel's files are as they were when it was checked.
        Outcome second = command("install", "secondwheel");
        assertEquals(0, second.exitCode(), second.output());
        String checking = second.output().lines().filter(line -> line.startsWith("Checking that")).findFirst().orElse("");
        assertTrue(checking.matches("Checking that secondwheel imports in the sandbox \\([0-9]+ other modules?"
                + " unchanged since (its|their) check\\)\\.\\.\\."), second.output());
        assertEquals("7 8\n", server.python("import tinywheel, secondwheel\nprint(tinywheel.VALUE, secondwheel.VALUE)")
                .get("stdout"));

        Outcome list = command("list");
        assertEquals(0, list.exitCode(), list.output());
        assertTrue(list.output().contains("  tinywheel 1.0\n"), list.output());

        Outcome uninstall = command("uninstall", "tinywheel", "secondwheel");
        assertEquals(0, uninstall.exitCode(), uninstall.output());
        assertTrue(((String) server.python("import tinywheel").get("error_message")).contains("not installed"));

        Outcome again = command("uninstall", "tinywheel");
        assertEquals(1, again.exitCode(), again.output());
        assertTrue(again.output().contains("'tinywheel' is not installed. Nothing was changed."), again.output());
    }

    @Test
    void aWheelCarryingNativeCodeIsRefusedAndNothingChanges() throws Exception {
        String before = Files.exists(PACKAGES.resolve("current")) ? Files.readString(PACKAGES.resolve("current")) : "";
        Outcome install = command("install", "nativewheel");
        assertEquals(1, install.exitCode(), install.output());
        assertTrue(install.output().contains("This needs native code, which the sandbox cannot run (found"
                + " nativewheel/_speedups.so). Nothing was changed."), install.output());
        String after = Files.exists(PACKAGES.resolve("current")) ? Files.readString(PACKAGES.resolve("current")) : "";
        assertEquals(before, after, "the generation in use is the same");
        assertTrue(((String) server.python("import nativewheel").get("error_message")).contains("not installed"));
    }

    @Test
    void aPackageNoIndexHasIsRefusedWithPipsReason() throws Exception {
        Outcome install = command("install", "no-such-package-anywhere");
        assertEquals(1, install.exitCode(), install.output());
        assertTrue(install.output().contains("No matching distribution found for no-such-package-anywhere"), install.output());
        assertTrue(install.output().contains("Only pure-Python wheels (tagged py3-none-any) can be installed"), install.output());
    }

    /**
     * The common profile, from real wheels: every package imports and works. Among them tzdata, which zoneinfo
     * reads after the host's time zone database (README, "Import profiles"): hidden in turn, each shows which
     * one answers, so the lookup that works with the host's database hidden can only come from the package.
     */
    @Test
    void theCommonProfileInstallsFromRealWheelsAndRuns() throws Exception {
        // Real wheels, from wherever this machine's pip configuration points; the test cannot build tz data.
        // The suite needs a pip configuration naming an index that has these wheels (README, "Set-up: two
        // commands"): no PyPI over the network here, and a skip for its absence would be a check that cannot
        // fail. PyYAML and MarkupSafe may come as CPython wheels only there: the installer then keeps their
        // pure-Python code.
        Path packages = SandboxServer.PROJECT_ROOT.resolve("target/it-common-packages");
        PackagesIT.deleteTree(packages);
        Outcome install = run(false, packages, "install", "--profile", "common");
        assertEquals(0, install.exitCode(), install.output());
        Outcome run = run(false, packages, "run", "--imports.profile=common", "--workers=1", "-c", """
                import yaml, jmespath, tabulate, jinja2, attrs, more_itertools, toolz, pytz
                from dateutil import parser, relativedelta
                print(yaml.safe_load('a: [1, 2]'), yaml.safe_dump({'b': 3}).strip(), yaml.__with_libyaml__)
                print(jmespath.search('a[1]', {'a': [1, 2]}))
                print(jinja2.Template('Hi {{ n }}', autoescape=True).render(n='<b>'))
                print(tabulate.tabulate([[1, 2]], headers=['x', 'y'], tablefmt='plain'))
                print(parser.parse('2026-11-24T10:00:00') + relativedelta.relativedelta(months=1))
                print(list(more_itertools.chunked([1, 2, 3], 2)), dict(toolz.frequencies('aab')), pytz.timezone('Europe/Paris'))
                import sys, zoneinfo, datetime
                def paris():
                    try:
                        return zoneinfo.ZoneInfo.no_cache('Europe/Paris')
                    except zoneinfo.ZoneInfoNotFoundError:
                        return 'not found'
                sys.modules['tzdata'] = None  # the package hidden: only the host's database can answer
                print('host:', paris())
                zoneinfo.reset_tzpath([])  # both hidden: nothing can answer
                print('neither:', paris())
                del sys.modules['tzdata']  # the package back, the host's database still hidden
                print(datetime.datetime(2026, 7, 1, 12, tzinfo=datetime.timezone.utc).astimezone(paris()).isoformat())
                print(datetime.datetime(2026, 1, 1, 12, tzinfo=paris()).utcoffset())
                """);
        assertEquals(0, run.exitCode(), run.output());
        assertTrue(run.output().contains("{'a': [1, 2]} b: 3 False\\n2\\nHi &lt;b&gt;\\n  x    y\\n  1    2\\n"
                + "2026-12-24 10:00:00\\n[[1, 2], [3]] {'a': 2, 'b': 1} Europe/Paris\\n"), run.output());
        assertTrue(run.output().contains("host: " + (TimeZones.hostDatabase().isPresent() ? "Europe/Paris" : "not found")
                + "\\nneither: not found\\n2026-07-01T14:00:00+02:00\\n1:00:00\\n"), run.output());
    }

    /** Runs the launcher with a pip that sees only the test's wheel folder. */
    private static Outcome command(String... args) throws IOException, InterruptedException {
        return run(true, args);
    }

    private static Outcome run(boolean testWheelsOnly, String... args) throws IOException, InterruptedException {
        return run(testWheelsOnly, PACKAGES, args);
    }

    private static Outcome run(boolean testWheelsOnly, Path packages, String... args) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(SandboxServer.LAUNCHER.toString()));
        line.add(args[0]);
        List<String> own = new ArrayList<>(List.of(args).subList(1, args.length));
        own.add("--packages.dir=" + packages);
        // A run serves its call as the suite's servers do; the package commands start no worker, and their JVM
        // is the installer's (InstallerJvm).
        boolean serves = args[0].equals("run");
        line.addAll(serves ? SandboxServer.withSuiteFlags(own) : own);
        ProcessBuilder builder = (serves ? SandboxServer.suiteProcess(line) : new ProcessBuilder(line)).redirectErrorStream(true);
        if (testWheelsOnly) {
            builder.environment().put("PIP_NO_INDEX", "1");
            builder.environment().put("PIP_FIND_LINKS", WHEELS.toString());
            builder.environment().put("PIP_CONFIG_FILE", "/dev/null");
        } else {
            // An index the machine cannot reach (pypi.org here) must fail fast instead of being retried for minutes.
            builder.environment().putIfAbsent("PIP_RETRIES", "0");
            builder.environment().putIfAbsent("PIP_TIMEOUT", "5");
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "the command did not finish");
        System.err.println("[" + String.join(" ", args) + "] " + output);
        return new Outcome(process.exitValue(), output);
    }

    /** A pure-Python wheel as pip expects one: the files, and dist-info with METADATA, WHEEL and RECORD. */
    static void wheel(Path folder, String name, Map<String, byte[]> files) throws IOException {
        String distInfo = name + "-1.0.dist-info/";
        Map<String, byte[]> entries = new LinkedHashMap<>(files);
        entries.put(distInfo + "METADATA", ("Metadata-Version: 2.1\nName: " + name + "\nVersion: 1.0\n").getBytes(StandardCharsets.UTF_8));
        entries.put(distInfo + "WHEEL", "Wheel-Version: 1.0\nGenerator: PackageInstallIT\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
                .getBytes(StandardCharsets.UTF_8));
        entries.put(distInfo + "top_level.txt", (name + "\n").getBytes(StandardCharsets.UTF_8));
        StringBuilder record = new StringBuilder();
        entries.forEach((path, content) -> record.append(path).append(",sha256=").append(sha256(content)).append(',')
                .append(content.length).append('\n'));
        record.append(distInfo).append("RECORD,,\n");
        entries.put(distInfo + "RECORD", record.toString().getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(entry.getKey()));
                zip.write(entry.getValue());
                zip.closeEntry();
            }
        }
        Files.write(folder.resolve(name + "-1.0-py3-none-any.whl"), bytes.toByteArray());
    }

    private static String sha256(byte[] content) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
