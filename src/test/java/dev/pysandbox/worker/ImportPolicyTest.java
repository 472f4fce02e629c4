package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.junit.jupiter.api.Test;

import dev.pysandbox.config.Settings;

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
    void theRuleRefusesWhatTheProfileDoesNotAllowAndPointsToTheListInTheToolDescription() {
        ImportPolicy standard = ImportPolicy.standard();
        assertEquals(Optional.empty(), standard.refusal("json", List.of(), Set.of()));
        assertEquals(Optional.empty(), standard.refusal("os.path", List.of(), Set.of()));
        assertEquals(Optional.of("import of 'importlib' is not allowed in this sandbox; execute_code's description lists"
                + " the modules this sandbox allows"), standard.refusal("importlib", List.of(), Set.of()));
        assertTrue(standard.refusal("importlib", List.of("import_module"), Set.of()).isPresent(), "a name is not a submodule");
    }

    @Test
    void standardModulesThatStayRefusedSayWhyAndWhatToDoInstead() {
        ImportPolicy standard = ImportPolicy.standard();
        assertEquals("import of 'subprocess' is not allowed in this sandbox: it starts processes, which this sandbox"
                + " does not allow; do the work in this code instead (asyncio runs coroutines concurrently on one thread)",
                standard.refusal("subprocess", List.of(), Set.of()).orElseThrow());
        assertTrue(standard.refusal("concurrent.futures", List.of(), Set.of()).orElseThrow().startsWith("import of"
                + " 'concurrent.futures' is not allowed in this sandbox: it starts processes"), "a package's reason holds for its modules");
        assertEquals("import of 'socket' is not allowed in this sandbox: there is no network here; pass the data in with"
                + " the call instead (execute_code's `files` places files in the working directory, and `stdin` is what"
                + " input() reads)", standard.refusal("socket", List.of(), Set.of()).orElseThrow());
        assertEquals("import of 'signal' is not allowed in this sandbox: it handles process signals, which this sandbox"
                + " does not allow; the call's `timeout` bounds how long code runs",
                standard.refusal("signal", List.of(), Set.of()).orElseThrow());
        assertTrue(standard.refusal("sqlite3", List.of(), Set.of()).orElseThrow().endsWith("sqlite3 needs SQLite's native"
                + " library, which this sandbox cannot load; keep tables in lists of dicts, or in csv or json files in"
                + " the scratch space"));
        assertEquals(Optional.empty(), standard.allow("sqlite3").refusal("sqlite3", List.of(), Set.of()),
                "the operator may still allow one");
    }

    /** Every reason a standard module is refused for goes on, after a semicolon, with what to do instead. */
    @Test
    void everyRefusedStandardModuleIsOfferedSomethingInstead() {
        ImportPolicy.refusedModules().forEach((module, reason) -> assertTrue(reason.contains("; "), module + ": " + reason));
    }

    @Test
    void networkPackagesAreRefusedSayingThereIsNoNetworkEvenWhenInstalled() {
        ImportPolicy common = ImportPolicy.common();
        for (String module : new String[] {"requests", "urllib3", "httpx", "aiohttp", "requests.adapters"}) {
            String refusal = common.refusal(module, List.of(), Set.of("requests", "urllib3")).orElseThrow();
            assertTrue(refusal.startsWith("import of '" + module + "' is not allowed in this sandbox: there is no network"
                    + " here; pass the data in with the call instead"), refusal);
        }
        assertEquals(Optional.empty(), common.allow("urllib3").refusal("urllib3", List.of(), Set.of("urllib3")),
                "the operator may still allow one");
    }

    @Test
    void anInstalledPackageThatIsNotAllowedNamesTheSettingThatAllowsIt() {
        ImportPolicy standard = ImportPolicy.standard();
        assertEquals("import of 'tabulate' is not allowed in this sandbox: 'tabulate' is installed, but the import"
                + " profile does not allow it; the operator can allow it by adding tabulate to the setting imports.allow",
                standard.refusal("tabulate", List.of(), Set.of("tabulate", "yaml")).orElseThrow());
        assertTrue(standard.refusal("yaml.constructor", List.of(), Set.of("tabulate", "yaml")).orElseThrow()
                .endsWith("by adding yaml to the setting imports.allow"), "the top-level package is what imports.allow takes");
        assertTrue(standard.refusal("tabulate", List.of(), Set.of()).orElseThrow().endsWith("execute_code's description"
                + " lists the modules this sandbox allows"), "not installed: nothing to allow");
    }

    @Test
    void theSettingARefusalNamesIsARealSetting() {
        assertEquals("", Settings.defaults().get(ImportRefusals.ALLOW_SETTING));
    }

    @Test
    void aRefusalNoLongerListsTheAllowedModules() {
        for (String module : new String[] {"importlib", "gc", "tabulate", "socket", "numpy"}) {
            String refusal = ImportPolicy.standard().refusal(module, List.of(), Set.of("tabulate")).orElseThrow();
            assertTrue(refusal.length() < 250, refusal);
            assertFalse(refusal.contains("argparse"), refusal);
        }
    }

    @Test
    void aRefusedPackageIsAllowedOnlyForItsAllowedSubmodules() {
        ImportPolicy standard = ImportPolicy.standard();
        assertEquals(Optional.empty(), standard.refusal("urllib", List.of("parse"), Set.of()));
        assertTrue(standard.refusal("urllib", List.of(), Set.of()).isPresent(), "the package itself");
        assertTrue(standard.refusal("urllib", List.of("parse", "request"), Set.of()).isPresent(), "one name it does not allow");
        assertTrue(standard.refusal("urllib", List.of("*"), Set.of()).isPresent(), "a star takes everything");
    }

    @Test
    void nativePackagesAreRefusedSayingNoInstallHelpsEvenWhenAllowedAndWhatToUseInstead() {
        String refusal = ImportPolicy.standard().allow("numpy").refusal("numpy.linalg", List.of(), Set.of()).orElseThrow();
        assertEquals("'numpy' needs native code, which this sandbox cannot run: only pure-Python packages can be"
                + " installed; use lists with math and statistics instead", refusal);
        assertEquals("'torch' needs native code, which this sandbox cannot run: only pure-Python packages can be"
                + " installed; execute_code's description lists the modules this sandbox allows, all of them pure Python",
                ImportPolicy.standard().refusal("torch", List.of(), Set.of()).orElseThrow());
        assertEquals(Optional.empty(), ImportPolicy.unrestricted().refusal("numpy", List.of(), Set.of()),
                "the unrestricted profile checks no import");
        assertEquals(Optional.empty(), ImportPolicy.unrestricted().refusal("socket", List.of(), Set.of()));
    }

    @Test
    void theRuleAsTheGuestCallsItAnswersTextAndNeverThrows() {
        ImportRule rule = new ImportRule(ImportPolicy.standard(), Set.of("tabulate"));
        try (Context host = Context.newBuilder().option("engine.WarnInterpreterOnly", "false").build()) {
            Value xml = host.asValue("xml");
            assertEquals("", rule.execute(xml, host.asValue(ProxyArray.fromArray("etree"))).toString());
            assertTrue(rule.execute(host.asValue("socket"), host.asValue(ProxyArray.fromArray())).toString()
                    .startsWith("import of 'socket' is not allowed"));
            assertTrue(rule.execute(host.asValue("tabulate"), host.asValue(ProxyArray.fromArray())).toString()
                    .endsWith("imports.allow"), "the rule knows what the context's package folder holds");
            for (Value[] odd : List.of(new Value[0], new Value[] {host.asValue(1), host.asValue(ProxyArray.fromArray())},
                    new Value[] {xml, host.asValue(ProxyArray.fromArray(2))}, new Value[] {xml, xml})) {
                assertTrue(rule.execute(odd).toString().startsWith("import refused"), "refused, not thrown");
            }
        }
    }
}
