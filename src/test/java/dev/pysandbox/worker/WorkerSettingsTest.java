package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.pysandbox.files.FileLimits;

/** The worker takes its settings from the supervisor, every one of them, and has no defaults of its own. */
class WorkerSettingsTest {
    private static final WorkerSettings CONFIGURED = new WorkerSettings(4096, 8192, 2, 300,
            ImportPolicy.standard(), true, List.of("json", "math"), "/srv/packages",
            new FileLimits(1 << 20, 10, 4096), List.of("numpy"), 200);

    /** The system properties a worker's command line sets, as the worker's JVM reads them. */
    private static Properties commandLine(WorkerSettings settings) {
        Properties properties = new Properties();
        for (String option : settings.asSystemProperties()) {
            String definition = option.substring("-D".length());
            int equals = definition.indexOf('=');
            properties.setProperty(definition.substring(0, equals), definition.substring(equals + 1));
        }
        return properties;
    }

    @Test
    void theWorkerReadsEverySettingTheSupervisorPasses() {
        WorkerSettings read = WorkerSettings.fromProperties(commandLine(CONFIGURED));
        assertArrayEquals(CONFIGURED.asSystemProperties(), read.asSystemProperties());
        assertEquals(2, read.readyContexts());
        assertEquals(List.of("json", "math"), read.preload());
    }

    @Test
    void emptySettingsAreValuesNotMissing() {
        WorkerSettings none = WorkerSettings.fromProperties(commandLine(WorkerSettings.forImportCheck()));
        assertEquals(List.of(), none.preload());
        assertEquals("", none.packagesDir());
        assertEquals(List.of(), none.autoInstall());
    }

    @Test
    void aWorkerMissingAnySettingRefusesToStartAndNamesIt() {
        Properties all = commandLine(CONFIGURED);
        assertEquals(11, all.size(), "every setting is on the command line");
        for (String name : all.stringPropertyNames()) {
            Properties missingOne = commandLine(CONFIGURED);
            missingOne.remove(name);
            String message = assertThrows(IllegalArgumentException.class,
                    () -> WorkerSettings.fromProperties(missingOne)).getMessage();
            assertTrue(message.contains("missing worker settings: " + name), message);
        }
    }

    @Test
    void aSettingThatDoesNotParseIsRefusedByName() {
        Properties properties = commandLine(CONFIGURED);
        properties.setProperty("pysandbox.worker.readyContexts", "two");
        String message = assertThrows(IllegalArgumentException.class,
                () -> WorkerSettings.fromProperties(properties)).getMessage();
        assertTrue(message.contains("pysandbox.worker.readyContexts") && message.contains("'two'"), message);
        properties.setProperty("pysandbox.worker.readyContexts", "2");
        properties.setProperty("pysandbox.worker.strictBuiltins", "yes");
        message = assertThrows(IllegalArgumentException.class, () -> WorkerSettings.fromProperties(properties)).getMessage();
        assertTrue(message.contains("pysandbox.worker.strictBuiltins"), message);
    }

    @Test
    void aWorkerJvmStartedWithoutItsSettingsExitsWithAClearMessage() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process worker = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                WorkerMain.class.getName()).start();
        worker.getOutputStream().close();
        String stderr = new String(worker.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(worker.waitFor(60, TimeUnit.SECONDS));
        assertNotEquals(0, worker.exitValue());
        assertEquals(WorkerMain.BAD_SETTINGS, worker.exitValue());
        assertTrue(stderr.contains("worker: cannot start: missing worker settings: pysandbox.worker.captureBytes"),
                stderr);
        assertEquals(0, worker.getInputStream().readAllBytes().length, "nothing on the protocol stream");
    }
}
