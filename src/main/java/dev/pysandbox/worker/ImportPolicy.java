package dev.pysandbox.worker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.pysandbox.packages.KnownPackages;

/**
 * Which modules user code may import, in the shape of jsoup's {@code Safelist}: named presets that a
 * configuration extends ({@link #allow}) or narrows ({@link #remove}). Allowing a package allows its
 * submodules ({@code collections} allows {@code collections.abc}).
 *
 * <p>{@link #refusal} is the import rule itself, the one place it is decided: the prelude's import guard asks
 * it on every route that hands user code a module, and {@code validate_code} asks it too (through
 * {@link ImportRule}).
 *
 * <p>This is a convenience layer that tells a user early and clearly what the sandbox offers; it is not the
 * security boundary (measured: an import hook in Python can be bypassed). The boundary is the context's
 * capability settings and the worker process: a module reached around this policy still reaches nothing.
 */
public final class ImportPolicy {
    /** Modules that make no sense to refuse: {@code sys} carries stdin, stdout and {@code sys.exit}. */
    private static final List<String> CORE = List.of("sys");

    /**
     * {@code _strptime} is {@code datetime.strptime} and {@code time.strptime}: GraalPy 25.2's builtins import it
     * the first time either is called, from the user's frame, so a profile that offers dates offers it too.
     */
    private static final List<String> MINIMAL = List.of(
            "math", "random", "string", "re", "json", "collections", "itertools", "functools", "operator",
            "datetime", "time", "_strptime");

    /**
     * Every standard module that computes without the host: what agents import to reshape data in memory, test
     * and log their own code, parse and write text formats and archives, and handle the call's scratch files
     * ({@code os}, {@code pathlib}, {@code shutil}, {@code tempfile}, {@code glob}, {@code zipfile},
     * {@code tarfile}, {@code logging}'s file handlers: the context's file system shows nothing but the scratch
     * space, the packages and the time zone files, all but the scratch space read-only). {@code xml} parses on
     * GraalPy's expat, which refuses external entities and DTDs and bounds entity expansion; {@code zoneinfo}
     * reads the host's time zone database read-only; {@code asyncio} runs coroutines on a loop of the sandbox's
     * own ({@code event_loop.py}); {@code bz2} compresses through the worker ({@code Bzip2Codec});
     * {@code threading} gives locks, and starting a thread raises RuntimeError.
     * What stays refused, and why, is {@link ImportRefusals#standardModules}.
     */
    private static final List<String> STANDARD = List.of(
            // numbers and text
            "math", "cmath", "decimal", "fractions", "statistics", "random", "secrets", "string", "textwrap", "re",
            "difflib", "unicodedata", "stringprep", "locale", "codecs", "binascii", "base64", "quopri", "struct",
            "array", "numbers", "colorsys",
            // data structures and functions
            "collections", "itertools", "functools", "operator", "copy", "copyreg", "bisect", "heapq", "graphlib",
            "contextlib", "abc", "dataclasses", "enum", "typing", "types", "weakref", "reprlib", "pprint",
            "queue", "sched", "contextvars", "threading", "asyncio",
            // dates and times
            "datetime", "time", "calendar", "zoneinfo",
            // formats
            "json", "csv", "tomllib", "configparser", "html", "xml", "email", "mimetypes", "plistlib", "pickle",
            "uuid", "ipaddress", "urllib.parse", "shlex", "fnmatch",
            // hashing and compression
            "hashlib", "hmac", "zlib", "gzip", "bz2", "lzma", "zipfile", "tarfile",
            // the program itself: testing, logging, arguments, timing, introspection
            "logging", "warnings", "traceback", "unittest", "doctest", "argparse", "timeit", "cProfile", "profile",
            "pstats", "ast", "inspect", "tokenize", "token", "keyword", "linecache", "errno", "atexit",
            "platform",
            // scratch files
            "io", "os", "stat", "pathlib", "shutil", "tempfile", "glob", "filecmp", "fileinput",
            "_strptime",
            // charts: the sandbox's own matplotlib, drawn by the worker (SandboxFileSystem.LIBRARY)
            "matplotlib");

    private final String name;
    private final Set<String> modules;
    private final boolean unrestricted;

    private ImportPolicy(String name, Set<String> modules, boolean unrestricted) {
        this.name = name;
        this.modules = Collections.unmodifiableSet(new TreeSet<>(modules));
        this.unrestricted = unrestricted;
    }

    /** A few everyday modules: maths, text, JSON, collections, dates. */
    public static ImportPolicy minimal() {
        return preset("minimal", MINIMAL);
    }

    /** The standard library that computes without the host, and scratch files: no processes, network or threads. */
    public static ImportPolicy standard() {
        return preset("standard", STANDARD);
    }

    /** No import checks at all; the context settings and worker process still confine the code. */
    public static ImportPolicy unrestricted() {
        return new ImportPolicy("unrestricted", Set.of(), true);
    }

    /**
     * The standard profile and the everyday pure-Python packages ({@link KnownPackages#COMMON_MODULES}):
     * jmespath, dateutil, yaml, tabulate, attrs, more_itertools, toolz, pytz, jinja2. They still have to be
     * installed ({@code bin/python-sandbox-mcp install --profile common}, or {@code packages.auto-install}).
     */
    public static ImportPolicy common() {
        List<String> modules = new ArrayList<>(STANDARD);
        modules.addAll(KnownPackages.COMMON_MODULES);
        return preset("common", modules);
    }

    /** The preset with this name: {@code minimal}, {@code standard}, {@code common} or {@code unrestricted}. */
    public static ImportPolicy named(String profile) {
        return switch (profile.strip().toLowerCase(Locale.ROOT)) {
            case "minimal" -> minimal();
            case "standard" -> standard();
            case "common" -> common();
            case "unrestricted" -> unrestricted();
            default -> throw new IllegalArgumentException("unknown import profile '" + profile
                    + "'; known profiles: minimal, standard, common, unrestricted");
        };
    }

    private static ImportPolicy preset(String name, List<String> modules) {
        Set<String> all = new TreeSet<>(CORE);
        all.addAll(modules);
        return new ImportPolicy(name, all, false);
    }

    /** This policy plus these modules (and their submodules). */
    public ImportPolicy allow(String... extra) {
        Set<String> all = new TreeSet<>(modules);
        for (String module : extra) {
            all.add(checkName(module));
        }
        return new ImportPolicy(name, all, unrestricted);
    }

    /** This policy without these modules. */
    public ImportPolicy remove(String... denied) {
        Set<String> all = new TreeSet<>(modules);
        all.removeAll(Arrays.stream(denied).map(ImportPolicy::checkName).toList());
        return new ImportPolicy(name, all, unrestricted);
    }

    public boolean unrestrictedImports() {
        return unrestricted;
    }

    public Set<String> modules() {
        return modules;
    }

    /**
     * The modules code is told it may import: all but private helpers ({@code _strptime}), which are allowed for
     * the modules that need them, not offered by name.
     */
    public List<String> offered() {
        return modules.stream().filter(name -> !name.startsWith("_")).toList();
    }

    /** Whether user code may import {@code module}: it or a package containing it is allowed. */
    public boolean allows(String module) {
        return unrestricted || withPackages(module).stream().anyMatch(modules::contains);
    }

    /** The module and the packages holding it, innermost first: {@code a.b.c}, {@code a.b}, {@code a}. */
    static List<String> withPackages(String module) {
        List<String> names = new ArrayList<>();
        for (String name = module; ; name = name.substring(0, name.lastIndexOf('.'))) {
            names.add(name);
            if (name.indexOf('.') < 0) {
                return names;
            }
        }
    }

    /**
     * The import rule: why user code may not import {@code module}, asking for the names in {@code fromlist}
     * from it ({@code from module import a, b}), or empty when it may. A module is allowed when it or a
     * package containing it is ({@link #allows}); a package that is not is still allowed when every name asked
     * from it is an allowed submodule ({@code from xml import etree} with {@code xml.etree} allowed), and the
     * guest then gets those submodules only, never the package. A package built on native code is refused by
     * name first, saying that no install can help. The unrestricted profile refuses nothing. The words of a
     * refusal, and what it offers instead, are {@link ImportRefusals}' to choose.
     *
     * @param installed the top-level modules the package folder in use provides: a refusal of one of them
     *                  names the setting that allows it
     */
    public Optional<String> refusal(String module, List<String> fromlist, Set<String> installed) {
        if (unrestricted) {
            return Optional.empty();
        }
        String top = ImportRefusals.topLevel(module);
        Optional<String> needsNative = ImportRefusals.nativePackage(top);
        if (needsNative.isPresent()) {
            return needsNative;
        }
        if (allows(module) || !fromlist.isEmpty() && fromlist.stream()
                .allMatch(name -> !name.equals("*") && allows(module + "." + name))) {
            return Optional.empty();
        }
        return Optional.of(ImportRefusals.notAllowed(module, installed.contains(top)));
    }

    /** The standard modules every profile but the unrestricted one refuses, each with the reason it gives. */
    public static Map<String, String> refusedModules() {
        return ImportRefusals.standardModules();
    }

    /** The form a worker receives it in ({@link WorkerSettings}): {@code *} for unrestricted, else a list. */
    public String encode() {
        return unrestricted ? "*" : String.join(",", modules);
    }

    public static ImportPolicy decode(String encoded) {
        if (encoded.equals("*")) {
            return unrestricted();
        }
        Set<String> modules = new TreeSet<>();
        for (String module : encoded.split(",")) {
            if (!module.isBlank()) {
                modules.add(checkName(module));
            }
        }
        return new ImportPolicy("custom", modules, false);
    }

    /** Whether {@code name} is a dotted Python module name (and nothing that could smuggle code or separators). */
    public static boolean isModuleName(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
    }

    private static String checkName(String module) {
        String trimmed = module.strip();
        if (!isModuleName(trimmed)) {
            throw new IllegalArgumentException("'" + module + "' is not a module name");
        }
        return trimmed;
    }

    @Override
    public String toString() {
        return name + (unrestricted ? "" : " " + modules);
    }
}
