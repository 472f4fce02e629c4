package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ImportPolicyTest {
    @Test
    void standardIsThePureComputationSetPlusSys() {
        ImportPolicy standard = ImportPolicy.standard();
        for (String module : new String[] {"math", "decimal", "json", "re", "hashlib", "uuid", "urllib.parse", "sys",
                "io", "html", "html.parser", "string", "graphlib", "secrets", "ipaddress", "contextlib", "abc", "shlex",
                "fnmatch", "colorsys", "zlib", "gzip", "xml.etree.ElementTree", "zoneinfo", "os", "os.path", "pathlib",
                "shutil", "tempfile", "glob"}) {
            assertTrue(standard.allows(module), module);
        }
        for (String module : new String[] {"socket", "subprocess", "ctypes", "signal", "importlib", "java",
                "polyglot", "__graalpython__", "threading", "urllib.request", "urllib", "pickle", "xml", "xml.dom",
                "xml.sax", "pyexpat", "posix", "multiprocessing"}) {
            assertFalse(standard.allows(module), module);
        }
        assertEquals(55, standard.modules().size());
    }

    @Test
    void minimalIsASubsetOfStandard() {
        assertTrue(ImportPolicy.standard().modules().containsAll(ImportPolicy.minimal().modules()));
        assertFalse(ImportPolicy.minimal().allows("decimal"));
    }

    @Test
    void allowingAPackageAllowsItsSubmodulesOnly() {
        ImportPolicy policy = ImportPolicy.minimal().allow("xml");
        assertTrue(policy.allows("xml.etree.ElementTree"));
        assertTrue(policy.allows("collections.abc"));
        assertFalse(policy.allows("xmlrpc"), "a name prefix is not a package");
    }

    @Test
    void presetsCanBeExtendedAndNarrowedWithoutChangingThePreset() {
        ImportPolicy custom = ImportPolicy.standard().allow("tomllib").remove("random");
        assertTrue(custom.allows("tomllib"));
        assertFalse(custom.allows("random"));
        assertTrue(ImportPolicy.standard().allows("random"), "presets are values, not shared state");
    }

    @Test
    void encodesForTheWorkerAndBack() {
        ImportPolicy custom = ImportPolicy.minimal().allow("decimal");
        assertEquals(custom.modules(), ImportPolicy.decode(custom.encode()).modules());
        assertTrue(ImportPolicy.decode(ImportPolicy.unrestricted().encode()).allows("anything.at.all"));
    }

    @Test
    void namesAreChecked() {
        assertEquals("standard", ImportPolicy.named(" Standard ").toString().split(" ")[0]);
        assertThrows(IllegalArgumentException.class, () -> ImportPolicy.named("lenient"));
        assertThrows(IllegalArgumentException.class, () -> ImportPolicy.standard().allow("os; rm -rf /"));
    }
}
