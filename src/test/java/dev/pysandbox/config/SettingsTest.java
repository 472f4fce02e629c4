package dev.pysandbox.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.cli.CommandLine;
import dev.pysandbox.worker.WorkerSettings;

class SettingsTest {
    @TempDir
    Path temp;

    @Test
    void packagedDefaultsMatchTheDocumentedValues() throws ConfigException {
        ServerConfig config = ServerConfig.from(Settings.defaults());
        assertEquals(Duration.ofSeconds(30), config.defaultTimeout());
        assertEquals(Duration.ofSeconds(300), config.maxTimeout());
        assertEquals(Duration.ofSeconds(60), config.runPythonTimeout());
        assertEquals(1_048_576, config.maxCodeBytes());
        assertEquals(51_200, config.captureBytes());
        assertEquals(32, config.sessions().max());
        assertEquals(Duration.ofMinutes(10), config.sessions().idleTimeout());
        assertEquals(16 * 1024 * 1024, config.maxLineBytes());
        assertTrue(config.workers() >= 1);
    }

    /**
     * The auto-install limit has one source, the defaults file, which AutoInstaller is given through ServerConfig;
     * README (its settings table and its Auto-install paragraph) and SECURITY.md name it, and once said 60 s while
     * the code allowed 180.
     */
    @Test
    void theAutoInstallLimitTheDocumentsNameIsTheDefault() throws Exception {
        Duration limit = ServerConfig.from(Settings.defaults()).autoInstallTimeout();
        int mentions = 0;
        for (String document : java.util.List.of("README.md", "SECURITY.md")) {
            String text = Files.readString(Path.of(System.getProperty("user.dir"), document));
            java.util.regex.Matcher documented = java.util.regex.Pattern
                    .compile("`packages\\.auto-install-timeout-seconds`(?: \\| `|\\s+\\()(\\d+)").matcher(text);
            while (documented.find()) {
                assertEquals(limit, Duration.ofSeconds(Long.parseLong(documented.group(1))), document + ": " + documented.group());
                mentions++;
            }
        }
        assertEquals(3, mentions, "README's settings table and Auto-install paragraph, and SECURITY.md, name the limit");
        assertTrue(limit.compareTo(Duration.ofSeconds(60)) > 0, "installs take 41-51 s; 60 s failed slow ones");
    }

    @Test
    void longCallsGetJitWorkersAsTheMachineAllowsOrAsAskedAndNeverWhenEveryWorkerHasTheJit() throws Exception {
        assertEquals("auto", Settings.defaults().get("worker.jit-workers"), "picked by the machine by default");
        LongCallSettings picked = ServerConfig.from(Settings.defaults()).longCalls();
        assertTrue(picked.picked(), picked::toString);
        Settings asked = Settings.defaults().with("worker.jit-workers", "1", "test")
                .with("worker.jit-twin-after-millis", "5000", "test");
        assertEquals(new LongCallSettings(1, Duration.ofSeconds(5), false), ServerConfig.from(asked).longCalls());
        assertEquals(LongCallSettings.NONE, ServerConfig.from(asked.with("worker.jit-workers", "0", "test")).longCalls());
        assertEquals(LongCallSettings.NONE, ServerConfig.from(asked.with("worker.jit", "auto", "test")).longCalls());
        assertEquals(LongCallSettings.NONE, ServerConfig.from(Settings.defaults().with("worker.jit", "auto", "test"))
                .longCalls(), "auto picks none when every worker has the JIT");
        ConfigException tooSoon = assertThrows(ConfigException.class, () -> ServerConfig.from(
                asked.with("worker.jit-twin-after-millis", "10", "test")));
        assertTrue(tooSoon.getMessage().contains("worker.jit-twin-after-millis must be between 100"), tooSoon.getMessage());
        ConfigException many = assertThrows(ConfigException.class, () -> ServerConfig.from(
                asked.with("worker.jit-workers", "lots", "test")));
        assertEquals("worker.jit-workers must be 'auto' or a number from 0 to 16, not 'lots'", many.getMessage());
    }

    /** What README's settings table says auto picks, at the shipped heap (512m, a general worker 812 MiB, a JIT one 1,580 MiB). */
    @Test
    void autoPicksOneJitWorkerPerFourCoresFromFourOnWhereHalfTheMemoryHoldsIt() {
        long mib = 1024 * 1024;
        long general = 812 * mib;
        long jit = 1580 * mib;
        long gib = 1024 * mib;
        assertEquals(0, LongCallSettings.autoWorkers(1, 16 * gib, general, jit));
        assertEquals(0, LongCallSettings.autoWorkers(2, 64 * gib, 2 * general, jit), "a twin gained nothing on two cores");
        assertEquals(1, LongCallSettings.autoWorkers(4, 16 * gib, 4 * general, jit));
        assertEquals(4, LongCallSettings.autoWorkers(16, 64 * gib, 16 * general, jit));
        assertEquals(2, LongCallSettings.autoWorkers(16, 32 * gib, 16 * general, jit), "as many as fit in half the memory");
        assertEquals(0, LongCallSettings.autoWorkers(4, 6 * gib, 3 * general, jit), "half of 6 GB holds the general workers only");
        assertEquals(1, LongCallSettings.autoWorkers(4, 0, 4 * general, jit), "unknown memory does not limit");
    }

    @Test
    void theConfigFileInTheRepositoryIsTheOneThatIsPackaged() throws IOException {
        Path repoCopy = Path.of(System.getProperty("user.dir"), "config", Settings.DEFAULTS_RESOURCE);
        try (var packaged = Settings.class.getResourceAsStream(Settings.DEFAULTS_RESOURCE)) {
            assertEquals(Files.readString(repoCopy), new String(packaged.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void flagsOverrideTheFileWhichOverridesTheDefaults() throws Exception {
        Path file = temp.resolve("custom.properties");
        Files.writeString(file, "workers=3\nsessions.max=7\n");
        CommandLine line = CommandLine.parse(new String[] {"--config", file.toString(), "--workers=5"});
        ServerConfig config = ServerConfig.from(line.settings());
        assertEquals(5, config.workers());
        assertEquals(7, config.sessions().max());
    }

    /** Idle sessions fill a worker's heap (about 5 MB each, measured): the per-worker cap follows worker.heap. */
    @Test
    void sessionsPerWorkerFollowsTheHeapUnlessSet() throws Exception {
        assertEquals(58, ServerConfig.from(Settings.defaults()).sessions().perWorker(), "the default 512m heap");
        assertEquals(16, ServerConfig.from(Settings.defaults().with("worker.heap", "256m", "test")).sessions().perWorker());
        assertEquals(1, ServerConfig.from(Settings.defaults().with("worker.heap", "128m", "test")).sessions().perWorker());
        assertEquals(7, ServerConfig.from(Settings.defaults().with("sessions.per-worker", "7", "test")).sessions().perWorker());
        String message = assertThrows(ConfigException.class, () -> ServerConfig.from(
                Settings.defaults().with("sessions.per-worker", "many", "test"))).getMessage();
        assertTrue(message.contains("sessions.per-worker"), message);
        assertThrows(ConfigException.class, () -> ServerConfig.from(Settings.defaults().with("sessions.per-worker", "0", "test")));
    }

    /**
     * run_python's scriptPath reads the server's files: no caller, over stdio or HTTP, gets it unless the
     * operator chose a root (issue 22: the working directory is {@code /} under desktop hosts).
     */
    @Test
    void runPythonHasARunRootOnlyWhereTheOperatorSetOne() throws ConfigException {
        assertNull(ServerConfig.from(Settings.defaults()).runRoot());
        assertNull(ServerConfig.from(Settings.defaults().with("transport", "http", "test")
                .with("http.auth", "none", "test")).runRoot());
        assertEquals(Path.of("/srv/scripts"), ServerConfig.from(Settings.defaults()
                .with("run-python.root", "/srv/scripts", "test")).runRoot());
        String message = assertThrows(ConfigException.class, () -> ServerConfig.from(Settings.defaults()
                .with("run-python.read-working-directory", "true", "test"))).getMessage();
        assertTrue(message.startsWith("run-python.read-working-directory=true needs run-python.root"), message);
    }

    /** A principal's cap: the whole table unless set (fairness comes from eviction, see SessionRegistry). */
    @Test
    void sessionsPerPrincipalIsTheWholeTableUnlessSetAndNeverMore() throws Exception {
        assertEquals(32, ServerConfig.from(Settings.defaults()).sessions().perPrincipal());
        assertEquals(6, ServerConfig.from(Settings.defaults().with("sessions.max", "6", "test")).sessions().perPrincipal());
        assertEquals(4, ServerConfig.from(Settings.defaults().with("sessions.max-per-principal", "4", "test"))
                .sessions().perPrincipal());
        String message = assertThrows(ConfigException.class, () -> ServerConfig.from(Settings.defaults()
                .with("sessions.max-per-principal", "33", "test"))).getMessage();
        assertEquals("sessions.max-per-principal (33) is larger than sessions.max (32)", message);
        assertThrows(ConfigException.class, () -> ServerConfig.from(
                Settings.defaults().with("sessions.max-per-principal", "0", "test")));
    }

    @Test
    void thePackageFolderMayNotLieInsideTheWorkersWritableCache() throws Exception {
        // Workers may write their resource cache: a package folder inside it could be changed by a worker and
        // planted code would reach the calls after it.
        String message = assertThrows(ConfigException.class, () -> ServerConfig.from(Settings.defaults()
                .with("worker.cache-dir", "/tmp/sandbox-cache", "test")
                .with("packages.dir", "/tmp/sandbox-cache/packages", "test"))).getMessage();
        assertTrue(message.startsWith("packages.dir (/tmp/sandbox-cache/packages) must not be inside worker.cache-dir"), message);
        assertThrows(ConfigException.class, () -> ServerConfig.from(Settings.defaults()
                .with("worker.cache-dir", "/tmp/sandbox-cache/inner", "test")
                .with("packages.dir", "/tmp/sandbox-cache", "test")));
        ServerConfig apart = ServerConfig.from(Settings.defaults()
                .with("worker.cache-dir", "/tmp/sandbox-cache", "test")
                .with("packages.dir", "/tmp/sandbox-packages", "test"));
        assertEquals(java.nio.file.Path.of("/tmp/sandbox-packages"), apart.packagesDir());
    }

    @Test
    void unknownKeysAndBadValuesNameTheKey() throws Exception {
        assertTrue(assertThrows(ConfigException.class, () -> CommandLine.parse(new String[] {"--wrokers=2"}))
                .getMessage().contains("'wrokers'"));
        String message = assertThrows(ConfigException.class, () -> ServerConfig.from(
                Settings.defaults().with("execute.max-timeout-seconds", "ten", "test"))).getMessage();
        assertTrue(message.contains("execute.max-timeout-seconds"), message);
        assertThrows(ConfigException.class, () -> ServerConfig.from(Settings.defaults().with("workers", "0", "test")));
        assertThrows(ConfigException.class, () -> ServerConfig.from(Settings.defaults().with("worker.heap", "lots", "test")));
        assertThrows(ConfigException.class, () -> ServerConfig.from(
                Settings.defaults().with("execute.default-timeout-seconds", "400", "test")));
    }

    @Test
    void preloadNamesModulesAndWorkersPreloadOnlyWhatTheProfileAllows() throws ConfigException {
        ServerConfig config = ServerConfig.from(Settings.defaults()
                .with("worker.preload", "json, statistics,socket", "test")
                .with("imports.deny", "statistics", "test"));
        assertEquals(java.util.List.of("json", "statistics", "socket"), config.preload());
        WorkerSettings settings = new WorkerSettings(1024, 4096, 2, 100, config.imports(), false, config.preload(), "",
                dev.pysandbox.files.FileLimits.DEFAULT, java.util.List.of(), 0);
        assertEquals(java.util.List.of("json"), settings.preload(), "socket is outside the profile, statistics denied");
        String message = assertThrows(ConfigException.class, () -> ServerConfig.from(
                Settings.defaults().with("worker.preload", "json;import os", "test"))).getMessage();
        assertTrue(message.contains("worker.preload") && message.contains("not a module name"), message);
        assertEquals(java.util.List.of(), ServerConfig.from(Settings.defaults().with("worker.preload", "", "test")).preload());
    }

    @Test
    void runCommandTakesCodeFileOrStdin() throws ConfigException {
        assertEquals("print(1)", CommandLine.parse(new String[] {"run", "-c", "print(1)"}).run().code());
        assertEquals("job.py", CommandLine.parse(new String[] {"run", "job.py"}).run().script());
        assertEquals("-", CommandLine.parse(new String[] {"run", "-"}).run().script());
        assertThrows(ConfigException.class, () -> CommandLine.parse(new String[] {"run"}));
    }

    @Test
    void runStartsOneWorkerUnlessTheCommandLineSaysMore() throws Exception {
        Path file = temp.resolve("c.properties");
        Files.writeString(file, "workers=4\n");
        assertEquals(1, ServerConfig.from(CommandLine.parse(new String[] {"run", "--config", file.toString(), "-c", "1"})
                .settings()).workers());
        assertEquals(3, ServerConfig.from(CommandLine.parse(new String[] {"run", "-c", "1", "--workers=3"}).settings())
                .workers());
        assertEquals(4, ServerConfig.from(CommandLine.parse(new String[] {"--config", file.toString()}).settings())
                .workers());
    }
}
