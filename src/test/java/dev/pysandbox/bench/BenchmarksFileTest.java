package dev.pysandbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarksFileTest {
    private static final String NEW = "## Speed\n\nRun of today.\n";

    @TempDir
    Path temp;

    @Test
    void aSectionReplacesOnlyWhatStandsBetweenItsMarkers() throws Exception {
        Path file = write("""
                # Benchmarks
                <!-- bench/speed:begin -->
                ## Speed

                Run of yesterday.
                <!-- bench/speed:end -->

                ### Reading the speed run (by hand)
                """);
        BenchmarksFile.replaceSection(file, "bench/speed", NEW);
        assertEquals("""
                # Benchmarks
                <!-- bench/speed:begin -->
                ## Speed

                Run of today.
                <!-- bench/speed:end -->

                ### Reading the speed run (by hand)
                """, Files.readString(file));
    }

    @Test
    void markersMissingRepeatedOrOutOfOrderAreRefusedAndTheFileIsLeftAsItWas() throws Exception {
        for (String text : List.of(
                "# Benchmarks\n\n## Speed\n",
                "<!-- bench/speed:begin -->\n## Speed\n",
                "## Speed\n<!-- bench/speed:end -->\n",
                "<!-- bench/speed:begin -->\n<!-- bench/speed:begin -->\n## Speed\n<!-- bench/speed:end -->\n",
                "<!-- bench/speed:begin -->\n## Speed\n<!-- bench/speed:end -->\n<!-- bench/speed:end -->\n",
                "<!-- bench/speed:end -->\n## Speed\n<!-- bench/speed:begin -->\n",
                // another benchmark's markers are not this one's
                "<!-- bench/speed-packages:begin -->\n## Speed\n<!-- bench/speed-packages:end -->\n")) {
            Path file = write(text);
            assertThrows(BenchmarksFile.Refused.class, () -> BenchmarksFile.checkMarkers(file, "bench/speed"), text);
            assertThrows(BenchmarksFile.Refused.class, () -> BenchmarksFile.replaceSection(file, "bench/speed", NEW), text);
            assertEquals(text, Files.readString(file));
        }
    }

    /** How the Release section would have been lost: it stood inside bin/scale-test's markers. */
    @Test
    void aHandWrittenSectionBetweenTheMarkersIsNotDeleted() throws Exception {
        String text = """
                <!-- bin/scale-test:begin -->
                ## Release

                Timed by hand.

                ## Scale-out

                Run of yesterday.
                <!-- bin/scale-test:end -->
                """;
        Path file = write(text);
        BenchmarksFile.Refused refused = assertThrows(BenchmarksFile.Refused.class,
                () -> BenchmarksFile.checkMarkers(file, "bin/scale-test"));
        assertTrue(refused.getMessage().contains("[## Release, ## Scale-out]"), refused.getMessage());
        assertThrows(BenchmarksFile.Refused.class,
                () -> BenchmarksFile.replaceSection(file, "bin/scale-test", "## Scale-out\n\nRun of today.\n"));
        assertEquals(text, Files.readString(file));
        // One section, but not the one this run writes.
        String other = "<!-- bin/scale-test:begin -->\n## Release\n<!-- bin/scale-test:end -->\n";
        Path otherFile = write(other);
        assertThrows(BenchmarksFile.Refused.class,
                () -> BenchmarksFile.replaceSection(otherFile, "bin/scale-test", "## Scale-out\n\nRun of today.\n"));
        assertEquals(other, Files.readString(otherFile));
    }

    /** Every section a benchmark writes (SpeedBenchmark, AgentWorkload twice, ScaleTest) is ready for its next run. */
    @Test
    void benchmarksMdHasTheMarkersOfEverySectionABenchmarkWrites() throws Exception {
        Path benchmarks = Path.of(System.getProperty("user.dir"), "BENCHMARKS.md");
        for (String name : List.of("bench/speed", "bench/agent-workload", "bench/agent-workload-packages",
                "bin/scale-test")) {
            BenchmarksFile.checkMarkers(benchmarks, name);
        }
    }

    private Path write(String text) throws Exception {
        return Files.writeString(Files.createTempFile(temp, "BENCHMARKS", ".md"), text);
    }
}
