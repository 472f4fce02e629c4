package dev.pysandbox.worker;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.proxy.ProxyObject;

import dev.pysandbox.polyglot.GuestText;

/**
 * The Python every fresh context runs before user code: how user code is run and reported, and the policy
 * layers that live in Python (SECURITY.md, "Policy layers in Python"). One file per concern under
 * {@code prelude/}, each defining its install function, and {@code prelude.py}, which puts them together.
 *
 * <p>The files are read once and joined into one cached {@link Source}, so every context of the engine that runs
 * it shares its parsed code, and a context evaluates the prelude once: evaluated as thirteen Sources, it cost a
 * fresh context about 4 ms more (BENCHMARKS.md, "The prelude as one file per concern").
 *
 * <p>The import guard trusts the frames of the prelude (its imports are the sandbox's own), so no user code may
 * run under its name: {@link #userFilename} keeps a caller's name from being it.
 */
final class Prelude {
    /** The concern files, in the order they are joined; each defines {@code install_<name>}. */
    private static final List<String> CONCERNS = List.of("paths", "files", "exits", "host", "c_locale", "finders",
            "event_loop", "lzma_format", "unicode_data", "bz2_codec", "tools", "charts", "import_guard", "strict", "validate",
            "report", "run", "state");
    /** The file that puts the concerns together, joined last: evaluating the prelude gives its install. */
    private static final String COMPOSER = "prelude";
    /** The name the prelude runs under, which tracebacks and the import guard know it by. */
    private static final String NAME = "<sandbox-prelude>";

    private final Source source;

    /** Reads the prelude's files; one instance serves every context of an engine. */
    Prelude() {
        StringBuilder joined = new StringBuilder();
        for (String file : CONCERNS) {
            joined.append(read(file)).append('\n');
        }
        joined.append(read(COMPOSER));
        source = Source.newBuilder("python", joined.toString(), NAME).cached(true).buildLiteral();
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
     * @param timeZones   where the host's time zone database is mounted read-only in the context, or "" for none
     * @param codecs      what the worker answers for modules GraalPy leaves to native code
     * @param tools       the door to the operator's tools (code mode)
     * @param charts      the door to the worker's renderer (charts)
     * @param library     where the sandbox's own packages (matplotlib) are mounted read-only, or "" for none
     */
    record Settings(ImportRule importRule, boolean strict, List<String> preload, String packages,
            List<String> autoInstall, String timeZones, Codecs codecs, ToolBridge tools, ChartBridge charts,
            String library) {
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
            guest.put("time_zones", timeZones);
            guest.put("ucd", codecs.unicodeData());
            guest.put("bz2", codecs.bzip2());
            guest.put("tools", tools);
            guest.put("charts", charts);
            guest.put("library", library);
            return ProxyObject.fromMap(guest);
        }
    }

    /**
     * What the worker answers for standard modules GraalPy leaves to native code the sandbox cannot load: one
     * instance serves every context, since neither holds state between calls.
     *
     * @param unicodeData the unicodedata lookups ({@code unicode_data.py})
     * @param bzip2       the bz2 codec ({@code bz2_codec.py})
     */
    record Codecs(UnicodeData unicodeData, Bzip2Codec bzip2) {
        static final Codecs SHARED = new Codecs(new UnicodeData(), new Bzip2Codec());
    }

    /**
     * Installs the prelude in a fresh context, before any user code: evaluates it, then calls its install with
     * these settings. Throws what the context throws; the caller closes the context then.
     *
     * @param sharedCode the engine's recent snippets, whose compiled code the context's fresh runs share
     */
    PythonRunner install(Context context, Settings settings, SharedCode sharedCode) {
        return new PythonRunner(context, sharedCode, context.eval(source).execute(settings.toGuest()));
    }

    /**
     * The name user code runs under: the caller's, unless it is the prelude's, which the import guard would trust
     * (the command line's {@code run} names code after any local file); then the same name behind {@code ./}.
     */
    static String userFilename(String filename) {
        return NAME.equals(filename) ? "./" + filename : filename;
    }

    /** The name the prelude runs under. */
    static String name() {
        return NAME;
    }

    private static String read(String file) {
        return GuestText.read(Prelude.class, "prelude/" + file + ".py");
    }
}
