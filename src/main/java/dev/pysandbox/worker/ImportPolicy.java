package dev.pysandbox.worker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
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
     * The pure-computation part of the standard library: what agents import to reshape data in memory, and to
     * handle the call's scratch files ({@code os}, {@code pathlib}, {@code shutil}, {@code tempfile},
     * {@code glob}: the context's file system shows nothing but the scratch space and the packages, and the
     * interpreter refuses the processes and signals {@code os} offers). {@code io} is here for StringIO and
     * BytesIO as well as files, {@code zlib}
     * and {@code gzip} for bytes in memory; {@code xml.etree} builds and serializes trees, and says plainly that
     * it cannot parse text (GraalPy ships no expat parser; see the prelude). {@code zoneinfo} finds its time
     * zones in the {@code tzdata} package, once the operator has installed it.
     */
    private static final List<String> STANDARD = List.of(
            "math", "cmath", "decimal", "fractions", "statistics", "random", "secrets", "string", "textwrap", "re",
            "json", "csv", "io", "html", "xml.etree", "collections", "itertools", "functools", "operator", "copy",
            "contextlib", "abc", "dataclasses", "enum", "typing", "graphlib", "datetime", "time", "calendar",
            "base64", "hashlib", "hmac", "struct", "zlib", "gzip", "difflib", "shlex", "fnmatch", "pprint",
            "bisect", "heapq", "array", "numbers", "colorsys", "ipaddress", "unicodedata", "uuid", "urllib.parse",
            "zoneinfo", "os", "pathlib", "shutil", "tempfile", "glob", "_strptime");

    /**
     * Well-known packages built on C, C++ or Rust extensions: the sandbox refuses native code, so no install
     * can make them work, and the refusal says so instead of "not allowed" or "not installed".
     */
    private static final Set<String> NEEDS_NATIVE = Set.of("numpy", "pandas", "scipy", "pydantic", "pydantic_core",
            "regex", "lxml", "matplotlib", "sklearn", "torch", "cryptography", "psutil", "orjson", "ujson", "pyarrow",
            "polars");

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

    /** The pure-computation standard library and scratch files: no processes, network, threads or introspection. */
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
        if (unrestricted) {
            return true;
        }
        for (String prefix = module; ; prefix = prefix.substring(0, prefix.lastIndexOf('.'))) {
            if (modules.contains(prefix)) {
                return true;
            }
            if (prefix.indexOf('.') < 0) {
                return false;
            }
        }
    }

    /**
     * The import rule: why user code may not import {@code module}, asking for the names in {@code fromlist}
     * from it ({@code from module import a, b}), or empty when it may. A module is allowed when it or a
     * package containing it is ({@link #allows}); a package that is not is still allowed when every name asked
     * from it is an allowed submodule ({@code from xml import etree} with {@code xml.etree} allowed), and the
     * guest then gets those submodules only, never the package. A package built on native code is refused by
     * name first, saying that no install can help. The unrestricted profile refuses nothing.
     */
    public Optional<String> refusal(String module, List<String> fromlist) {
        if (unrestricted) {
            return Optional.empty();
        }
        String top = module.split("\\.", 2)[0];
        if (NEEDS_NATIVE.contains(top)) {
            return Optional.of("'" + top + "' needs native code, which this sandbox cannot run: only pure-Python"
                    + " packages can be installed");
        }
        if (allows(module) || !fromlist.isEmpty() && fromlist.stream()
                .allMatch(name -> !name.equals("*") && allows(module + "." + name))) {
            return Optional.empty();
        }
        return Optional.of("import of '" + module + "' is not allowed in this sandbox; allowed modules: "
                + String.join(", ", offered()));
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
