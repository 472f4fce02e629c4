package dev.pysandbox.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.pysandbox.cli.CommandLine;

class ReleaseTest {
    /** The project's own version in pom.xml: the first version after its artifactId. */
    static String pomVersion() throws Exception {
        String pom = Files.readString(Path.of(System.getProperty("basedir", ".")).resolve("pom.xml"));
        Matcher version = Pattern.compile("<artifactId>python-sandbox-mcp</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(pom);
        assertTrue(version.find(), "pom.xml names no version of python-sandbox-mcp");
        return version.group(1);
    }

    @Test
    void theVersionIsThePomsVersion() throws Exception {
        assertEquals(pomVersion(), Release.version());
        assertEquals("python-sandbox-mcp " + pomVersion(), Release.describe());
    }

    /** The MCP registry and the bundle's manifest take semantic versions. */
    @Test
    void theVersionIsASemanticVersion() {
        assertTrue(Release.version().matches("\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?"), Release.version());
    }

    @Test
    void versionIsAFlagOfEveryCommand() throws Exception {
        assertTrue(CommandLine.parse(new String[] {"--version"}).version());
        assertTrue(CommandLine.parse(new String[] {"serve", "--workers=2", "--version"}).version());
        // run with nothing to run is an error, unless only the version was asked for.
        assertTrue(CommandLine.parse(new String[] {"run", "--version"}).version());
    }
}
