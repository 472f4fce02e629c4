package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The policy layers inside the interpreter: the import policy (default and configured), neutered host
 * surfaces, the strict builtins profile, and tracebacks that name no host path. The configured server uses
 * the minimal profile extended and narrowed by flags, with strict builtins on.
 */
class PolicyLayersIT {
    private static SandboxServer configured;
    private final SandboxServer standard = SharedServer.get();

    @BeforeAll
    static void start() {
        configured = SandboxServer.start("--workers=1", "--imports.profile=minimal", "--imports.allow=decimal,signal,os",
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
    void blockedImportNamesTheAllowedModules() {
        Map<String, Object> result = standard.python("import socket");
        assertEquals("execution_error", result.get("status"));
        assertTrue(error(result).startsWith("ImportError: import of 'socket' is not allowed in this sandbox; allowed modules: abc, array, base64,"),
                error(result));
        assertFalse(((String) result.get("stderr")).contains("sandbox-prelude"), "the guard's own frame is hidden");
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
