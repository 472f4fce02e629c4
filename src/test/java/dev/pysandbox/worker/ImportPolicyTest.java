package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.junit.jupiter.api.Test;

class ImportPolicyTest {
    @Test
    void standardIsTheLibraryThatComputesWithoutTheHostPlusSys() {
        ImportPolicy standard = ImportPolicy.standard();
        for (String module : new String[] {"math", "decimal", "json", "re", "hashlib", "uuid", "urllib.parse", "sys",
                "io", "html", "html.parser", "string", "graphlib", "secrets", "ipaddress", "contextlib", "abc", "shlex",
                "fnmatch", "colorsys", "zlib", "gzip", "xml.etree.ElementTree", "zoneinfo", "os", "os.path", "pathlib",
                "shutil", "tempfile", "glob", "logging", "logging.handlers", "unittest", "unittest.mock", "doctest",
                "argparse", "timeit", "asyncio", "zipfile", "tarfile", "lzma", "pickle", "tomllib", "configparser",
                "email.parser", "ast", "inspect", "tokenize", "locale", "threading", "traceback", "warnings",
                "weakref", "binascii", "codecs", "xml", "xml.dom.minidom", "xml.sax", "xml.parsers.expat", "bz2"}) {
            assertTrue(standard.allows(module), module);
        }
        for (String module : new String[] {"socket", "subprocess", "ctypes", "signal", "importlib", "java",
                "polyglot", "__graalpython__", "urllib.request", "urllib", "pyexpat", "posix", "multiprocessing",
                "concurrent.futures", "select", "sqlite3", "http.client", "gc", "dis"}) {
            assertFalse(standard.allows(module), module);
        }
        assertTrue(standard.allows("_strptime"), "datetime.strptime imports it from the caller's frame");
        assertTrue(ImportPolicy.refusedModules().keySet().stream().noneMatch(standard::allows), "refused and allowed");
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

    @Test
    void theRuleRefusesWhatTheProfileDoesNotAllowAndNamesWhatItDoes() {
        ImportPolicy standard = ImportPolicy.standard();
        assertEquals(Optional.empty(), standard.refusal("json", List.of()));
        assertEquals(Optional.empty(), standard.refusal("os.path", List.of()));
        String refusal = standard.refusal("importlib", List.of()).orElseThrow();
        assertTrue(refusal.startsWith("import of 'importlib' is not allowed in this sandbox; allowed modules: abc,"
                + " argparse, array,"), refusal);
        assertTrue(standard.refusal("importlib", List.of("import_module")).isPresent(), "a name is not a submodule");
    }

    @Test
    void standardModulesThatStayRefusedSayWhy() {
        ImportPolicy standard = ImportPolicy.standard();
        assertEquals("import of 'subprocess' is not allowed in this sandbox: it starts processes, which this sandbox"
                + " does not allow", standard.refusal("subprocess", List.of()).orElseThrow());
        assertEquals("import of 'concurrent.futures' is not allowed in this sandbox: it starts processes, which this"
                + " sandbox does not allow", standard.refusal("concurrent.futures", List.of()).orElseThrow());
        assertEquals("import of 'socket' is not allowed in this sandbox: it opens network connections, which this"
                + " sandbox does not allow", standard.refusal("socket", List.of()).orElseThrow());
        assertTrue(standard.refusal("sqlite3", List.of()).orElseThrow().endsWith("sqlite3 needs SQLite's native"
                + " library, which this sandbox cannot load; keep tables in lists of dicts, or in csv or json files in"
                + " the scratch space"));
        assertEquals(Optional.empty(), standard.allow("sqlite3").refusal("sqlite3", List.of()),
                "the operator may still allow one");
    }

    @Test
    void aRefusedPackageIsAllowedOnlyForItsAllowedSubmodules() {
        ImportPolicy standard = ImportPolicy.standard();
        assertEquals(Optional.empty(), standard.refusal("urllib", List.of("parse")));
        assertTrue(standard.refusal("urllib", List.of()).isPresent(), "the package itself");
        assertTrue(standard.refusal("urllib", List.of("parse", "request")).isPresent(), "one name it does not allow");
        assertTrue(standard.refusal("urllib", List.of("*")).isPresent(), "a star takes everything");
    }

    @Test
    void nativePackagesAreRefusedSayingNoInstallHelpsEvenWhenAllowed() {
        String refusal = ImportPolicy.standard().allow("numpy").refusal("numpy.linalg", List.of()).orElseThrow();
        assertEquals("'numpy' needs native code, which this sandbox cannot run: only pure-Python packages can be"
                + " installed", refusal);
        assertEquals(Optional.empty(), ImportPolicy.unrestricted().refusal("numpy", List.of()),
                "the unrestricted profile checks no import");
        assertEquals(Optional.empty(), ImportPolicy.unrestricted().refusal("socket", List.of()));
    }

    @Test
    void theRuleAsTheGuestCallsItAnswersTextAndNeverThrows() {
        ImportRule rule = new ImportRule(ImportPolicy.standard());
        try (Context host = Context.newBuilder().option("engine.WarnInterpreterOnly", "false").build()) {
            Value xml = host.asValue("xml");
            assertEquals("", rule.execute(xml, host.asValue(ProxyArray.fromArray("etree"))).toString());
            assertTrue(rule.execute(host.asValue("socket"), host.asValue(ProxyArray.fromArray())).toString()
                    .startsWith("import of 'socket' is not allowed"));
            for (Value[] odd : List.of(new Value[0], new Value[] {host.asValue(1), host.asValue(ProxyArray.fromArray())},
                    new Value[] {xml, host.asValue(ProxyArray.fromArray(2))}, new Value[] {xml, xml})) {
                assertTrue(rule.execute(odd).toString().startsWith("import refused"), "refused, not thrown");
            }
        }
    }
}
