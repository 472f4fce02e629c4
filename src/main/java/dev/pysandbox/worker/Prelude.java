package dev.pysandbox.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyObject;

/**
 * The Python every fresh context runs before user code: how user code is run and reported, and the policy
 * layers that live in Python (SECURITY.md, "Policy layers in Python"). One file per concern under
 * {@code prelude/}, each evaluating to its install function, and {@code prelude.py}, which puts them together.
 *
 * <p>The files are read once and held as cached {@link Source}s, so every context of the engine that runs them
 * shares their parsed code: a context pays for evaluating them, never for parsing them again (the prelude runs
 * in every fresh context, once per call; BENCHMARKS.md, "Context cost").
 *
 * <p>The import guard trusts the frames of these files (their imports are the sandbox's own), so no user code
 * may run under their names: {@link #userFilename} keeps a caller's name from being one of them.
 */
final class Prelude {
    /** The concern files, by the names {@code prelude.py} reads their install functions with. */
    private static final List<String> CONCERNS = List.of("paths", "files", "exits", "host", "finders",
            "unicode_data", "tools", "import_guard", "strict", "validate", "report", "run");
    /** The file that puts the concerns together: {@code install(settings, concerns)}. */
    private static final String COMPOSER = "prelude";
    /** What every prelude file's name starts with: the names tracebacks and the import guard know them by. */
    private static final String NAME_PREFIX = "<sandbox-prelude/";

    /** The names of all the prelude's sources: no user code may run under one. */
    private static final Set<String> NAMES;

    static {
        List<String> names = new ArrayList<>();
        for (String file : CONCERNS) {
            names.add(sourceName(file));
        }
        names.add(sourceName(COMPOSER));
        NAMES = Set.copyOf(names);
    }

    private final Map<String, Source> concerns = new LinkedHashMap<>();
    private final Source composer;

    /** Reads the prelude's files; one instance serves every context of an engine. */
    Prelude() {
        for (String file : CONCERNS) {
            concerns.put(file, source(file));
        }
        composer = source(COMPOSER);
    }

    /**
     * The settings of one context's prelude, by name.
     *
     * @param importRule  the rule the import guard and {@code validate_code} ask; null for the unrestricted
     *                    profile, which checks no import
     * @param strict      the strict profile ({@code builtins.strict}): code may not name eval, exec, open ...
     * @param preload     modules to import before any user code, so that calls find them loaded
     * @param packages    where the operator's packages are mounted read-only in the context, or "" for none
     * @param autoInstall modules the server installs when code imports them missing
     * @param unicodeData the unicodedata lookups GraalPy leaves to a native module
     * @param tools       the door to the operator's tools (code mode)
     */
    record Settings(ImportRule importRule, boolean strict, List<String> preload, String packages,
            List<String> autoInstall, UnicodeData unicodeData, ToolBridge tools) {
        Settings {
            preload = List.copyOf(preload);
            autoInstall = List.copyOf(autoInstall);
        }

        /** What the guest reads them as: attributes named as {@code prelude.py}'s install documents them. */
        private ProxyObject toGuest() {
            Map<String, Object> guest = new HashMap<>();
            guest.put("import_rule", importRule);
            guest.put("strict", strict);
            guest.put("preload", String.join(",", preload));
            guest.put("packages", packages);
            guest.put("auto_install", String.join(",", autoInstall));
            guest.put("ucd", unicodeData);
            guest.put("tools", tools);
            return ProxyObject.fromMap(guest);
        }
    }

    /**
     * Installs the prelude in a fresh context, before any user code: runs every file, then puts them together
     * with these settings. Throws what the context throws; the caller closes the context then.
     */
    GuestRunner install(Context context, Settings settings) {
        Map<String, Object> installers = new HashMap<>();
        for (Map.Entry<String, Source> concern : concerns.entrySet()) {
            installers.put(concern.getKey(), context.eval(concern.getValue()));
        }
        Value runner = context.eval(composer).execute(settings.toGuest(), ProxyObject.fromMap(installers));
        return new GuestRunner(runner);
    }

    /**
     * The name user code runs under: the caller's, unless it is one of the prelude's, which the import guard
     * would trust (a script found in the run root may have any name); then the same name behind {@code ./}.
     */
    static String userFilename(String filename) {
        return NAMES.contains(filename) ? "./" + filename : filename;
    }

    /** The names the prelude's files run under. */
    static Set<String> names() {
        return NAMES;
    }

    private static String sourceName(String file) {
        return NAME_PREFIX + file + ".py>";
    }

    private static Source source(String file) {
        String resource = "prelude/" + file + ".py";
        try (InputStream in = Prelude.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " missing from the worker's resources");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Source.newBuilder("python", text, sourceName(file)).cached(true).buildLiteral();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }
}
