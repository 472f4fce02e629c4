package dev.pysandbox.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.pysandbox.cli.CommandLine;
import dev.pysandbox.wire.WireCodec;

class ReleaseTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", "."));

    /** The project's own version in pom.xml: the first version after its artifactId. */
    static String pomVersion() throws Exception {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
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

    /**
     * One licence, Apache-2.0, wherever the project says which: LICENSE, pom.xml and the MCP Bundle's manifest.
     * ReleaseIT checks that the archive and the bundle carry LICENSE; the registry's server.json has no field for it.
     */
    @Test
    void theLicenceIsApache2Everywhere() throws Exception {
        String licence = Files.readString(ROOT.resolve("LICENSE"));
        assertTrue(licence.strip().startsWith("Apache License\n                           Version 2.0, January 2004"),
                licence.lines().limit(3).toList().toString());
        assertTrue(licence.contains("END OF TERMS AND CONDITIONS"), "LICENSE is not the whole text");
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        Matcher licences = Pattern.compile("<licenses>\\s*<license>\\s*<name>([^<]+)</name>").matcher(pom);
        assertTrue(licences.find(), "pom.xml declares no licence");
        assertEquals("Apache-2.0", licences.group(1));
        @SuppressWarnings("unchecked")
        Map<String, Object> manifest = (Map<String, Object>) WireCodec.parseValue(
                Files.readString(ROOT.resolve("src/dist/manifest.json")));
        assertEquals("Apache-2.0", manifest.get("license"));
    }

    @Test
    void versionIsAFlagOfEveryCommand() throws Exception {
        assertTrue(CommandLine.parse(new String[] {"--version"}).version());
        assertTrue(CommandLine.parse(new String[] {"serve", "--workers=2", "--version"}).version());
        // run with nothing to run is an error, unless only the version was asked for.
        assertTrue(CommandLine.parse(new String[] {"run", "--version"}).version());
    }
}
