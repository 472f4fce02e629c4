package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The policy layers inside the interpreter: the import policy (default and configured), neutered host
 * surfaces, the strict builtins profile, and tracebacks that name no host path. The configured server uses
 * the minimal profile extended and narrowed by flags (importlib among them, as an operator who lets code import
 * allowed modules by name would), with strict builtins on.
 */
class PolicyLayersIT {
    private static SandboxServer configured;
    private final SandboxServer standard = SharedServer.get();

    @BeforeAll
    static void start() {
        configured = SandboxServer.start("--workers=1", "--imports.profile=minimal", "--imports.allow=decimal,signal,os,importlib",
                "--imports.deny=random", "--builtins.strict=true");
    }

    @AfterAll
    static void stop() {
        configured.close();
    }

    private static String error(Map<String, Object> result) {
        return (String) result.get("error_message");
    }

    @Test
    void everyStandardModuleImportsAndWorks() {
        // First imports in interpreter mode are slow; a generous timeout keeps a loaded machine from failing this.
        Map<String, Object> result = standard.execute(Map.of("language", "python", "timeout", 120, "code", """
                import math, cmath, decimal, fractions, statistics, random, string, textwrap, re, json, csv
                import collections, itertools, functools, operator, copy, dataclasses, enum, typing, datetime
                import time, calendar, base64, hashlib, hmac, struct, difflib, pprint, bisect, heapq, array
                import numbers, unicodedata, uuid, urllib.parse, sys
                from urllib import parse
                print(statistics.mean([1, 2, 3]), decimal.Decimal('1.5') * 2, datetime.date(2024, 2, 29).isoformat(),
                      hashlib.sha256(b'x').hexdigest()[:8], uuid.uuid4().version, parse.quote('a b'))
                """));
        assertEquals("success", result.get("status"), () -> result.toString());
        assertEquals("2 3.0 2024-02-29 2d711642 4 a%20b\n", result.get("stdout"));
    }

    @Test
    void blockedImportPointsToTheModulesTheDescriptionLists() {
        Map<String, Object> result = standard.python("import gc");
        assertEquals("execution_error", result.get("status"));
        assertEquals("ImportError: import of 'gc' is not allowed in this sandbox; execute_code's description lists the"
                + " modules this sandbox allows", error(result));
        assertFalse(((String) result.get("stderr")).contains("sandbox-prelude"), "the guard's own frame is hidden");
    }

    /**
     * Every route to a module the profile refuses, judged by what reached the code: a module object, its host
     * path, or the module loaded at all. Each route prints what it got; none may get anything.
     */
    @Test
    void attackDunderImportOfARefusedModuleIsRefused() {
        Map<String, Object> result = standard.python("""
                import sys
                bootstrap = sys.modules['_frozen_importlib']
                original = [c.cell_contents for c in help.__closure__
                            if getattr(c.cell_contents, '__name__', '') == '__import__' and c.cell_contents is not __import__]
                routes = {
                    '__import__': lambda: __import__('socket'),
                    '__import__ as the interpreter calls it': lambda: __import__('socket', None, None, (), 0),
                    '__import__ with a dict of its own': lambda: __import__('subprocess', {}),
                    'builtins.__import__': lambda: sys.modules['builtins'].__import__('socket'),
                    'an import in code exec()d with its own globals': lambda: exec('import socket as s; print(s)', {}),
                    'the machinery __import__': lambda: bootstrap.__import__('socket'),
                    'the machinery _find_and_load': lambda: bootstrap._find_and_load('socket', __import__),
                    'the original __import__ from a closure': lambda: original[0]('socket'),
                    'a module some allowed module loaded': lambda: __import__('posixpath'),
                    'a refused package for an allowed submodule': lambda: (lambda m: (m.__name__, hasattr(m, '__file__'),
                        hasattr(m, '__path__'), sorted(k for k in vars(m) if not k.startswith('__'))))(
                        __import__('urllib', fromlist=['parse'])),
                }
                for route, attempt in routes.items():
                    try:
                        print(route, 'got', attempt())
                    except ImportError:
                        print(route, 'refused')
                print('loaded:', [name for name in ('socket', 'subprocess', '_socket') if sys.modules.get(name)])
                """);
        assertEquals("success", result.get("status"), () -> result.toString());
        assertEquals("""
                __import__ refused
                __import__ as the interpreter calls it refused
                __import__ with a dict of its own refused
                builtins.__import__ refused
                an import in code exec()d with its own globals refused
                the machinery __import__ refused
                the machinery _find_and_load refused
                the original __import__ from a closure refused
                a module some allowed module loaded refused
                a refused package for an allowed submodule got ('urllib', False, False, ['parse'])
                loaded: []
                """, result.get("stdout"), "the package comes as a stand-in holding the allowed submodule only");
    }

    @Test
    void attackImportlibImportModuleOfARefusedModuleIsRefused() {
        Map<String, Object> result = configured.python("""
                import importlib, importlib.util, sys
                routes = {
                    'importlib.import_module': lambda: importlib.import_module('socket'),
                    'importlib.import_module, relative': lambda: importlib.import_module('.request', 'urllib'),
                    'importlib.util.find_spec': lambda: importlib.util.find_spec('socket'),
                    'importlib.import_module of a module os loaded': lambda: importlib.import_module('posixpath'),
                    'the machinery _gcd_import': lambda: sys.modules['_frozen_importlib']._gcd_import('socket'),
                }
                for route, attempt in routes.items():
                    try:
                        print(route, 'got', attempt())
                    except ImportError:
                        print(route, 'refused')
                print(importlib.import_module('decimal').Decimal(2), sys.modules.get('socket'))
                """);
        assertEquals("success", result.get("status"), () -> result.toString());
        assertEquals("""
                importlib.import_module refused
                importlib.import_module, relative refused
                importlib.util.find_spec refused
                importlib.import_module of a module os loaded refused
                the machinery _gcd_import refused
                2 None
                """, result.get("stdout"), "an allowed importlib still imports only what the profile allows");
    }

    @Test
    void validateCodeAppliesTheSameRuleToImportsByName() {
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) standard.call("validate_code", Map.of("code", """
                import json
                s = __import__('socket')
                p = importlib.import_module('subprocess')
                e = __import__('xml', fromlist=['etree'])
                """)).structuredContent();
        assertEquals(false, report.get("valid"), report::toString);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> errors = (List<Map<String, Object>>) report.get("errors");
        assertEquals(List.of(2, 3), errors.stream().map(e -> e.get("line")).toList(), report::toString);
        for (Map<String, Object> error : errors) {
            assertEquals("import_not_allowed", error.get("kind"));
            assertTrue(String.valueOf(error.get("message")).startsWith("import of '"), error::toString);
        }
    }

    @Test
    void profileIsExtendedAndNarrowedByConfiguration() {
        assertEquals("success", configured.python("import decimal, math").get("status"));
        assertTrue(error(configured.python("import random")).contains("'random' is not allowed"));
        assertTrue(error(configured.python("import statistics")).contains("'statistics' is not allowed"));
    }

    @Test
    void strictProfileRefusesEvalAndFriendsButRunsOrdinaryCode() {
        assertEquals("PermissionError: 'eval' is not allowed in the strict sandbox profile (line 2)",
                error(configured.python("x = 1\nprint(eval('x'))")));
        assertTrue(error(configured.python("getattr(1, 'real')")).contains("'getattr'"));
        assertTrue(error(configured.python("import math\nmath.__builtins__")).contains("'__builtins__'"));
        assertEquals("4.0\n", configured.python("import math\nprint(math.sqrt(16))").get("stdout"));
        assertEquals("success", standard.python("print(eval('1 + 1'))").get("status"), "strict is off by default");
    }

    @Test
    void signalsAreNeuteredEvenWhereSignalIsAllowed() {
        Map<String, Object> result = configured.python("""
                import signal
                try:
                    signal.raise_signal(signal.SIGTERM)
                except PermissionError as e:
                    print(e)
                try:
                    signal.signal(signal.SIGTERM, signal.SIG_IGN)
                except PermissionError as e:
                    print(e)
                """);
        assertEquals("signal.raise_signal is not available in this sandbox\nsignal.signal is not available in this sandbox\n",
                result.get("stdout"));
        assertEquals("success", configured.python("print('worker still up')").get("status"));
    }

    @Test
    void hardExitKeepsItsStatusWhereOsIsAllowed() {
        Map<String, Object> result = configured.python("import os\nprint('leaving')\nos._exit(4)");
        assertEquals(4, result.get("exit_code"));
        assertEquals("leaving\n", result.get("stdout"));
    }

    @Test
    void hostFactsAreNeutral() {
        Map<String, Object> result = standard.python("""
                import sys
                os = sys.modules['os']
                print(os.getpid(), os.getuid(), os.getcwd(), os.uname().nodename, os.cpu_count())
                """);
        assertEquals("2 65534 /home/sandbox sandbox 1\n", result.get("stdout"));
    }

    @Test
    void tracebacksThroughTheStdlibNameNoHostPath() {
        Map<String, Object> result = standard.python("import json\njson.loads('{bad')");
        String stderr = (String) result.get("stderr");
        assertTrue(stderr.contains("File \"<stdlib>/json/decoder.py\""), stderr);
        assertFalse(stderr.contains(System.getProperty("user.home")) || stderr.contains(".cache"), stderr);
    }
}
