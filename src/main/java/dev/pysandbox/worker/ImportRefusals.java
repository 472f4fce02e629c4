package dev.pysandbox.worker;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What an import refusal says: why the module is refused, and what the code can do instead (as the sqlite3
 * refusal always did: "keep tables in lists of dicts"). {@link ImportPolicy#refusal} decides whether an import
 * is refused and asks this class for the words, so that the import guard and {@code validate_code}, which both
 * ask that one rule, say the same thing.
 *
 * <p>No refusal lists the modules that are allowed: {@code execute_code}'s description does, once, and a list
 * of a hundred names in every refusal was what an agent read least.
 */
final class ImportRefusals {
    /** Where the allowed modules are listed, for refusals that have nothing better to offer. */
    static final String WHERE_ALLOWED = "execute_code's description lists the modules this sandbox allows";

    /** The setting that adds modules to the import profile ({@code config/python-sandbox-mcp.properties}). */
    static final String ALLOW_SETTING = "imports.allow";

    private static final String NO_NETWORK = "there is no network here; pass the data in with the call instead"
            + " (execute_code's `files` places files in the working directory, and `stdin` is what input() reads)";

    /**
     * Standard modules that stay refused in every profile but the unrestricted one, with the reason the refusal
     * gives: each reaches what the sandbox keeps from code, or needs a native library the sandbox cannot load.
     * (The unrestricted profile imports them, and the interpreter then refuses what they try.)
     */
    private static final Map<String, String> STANDARD = byModule(Map.of(
            "it starts processes, which this sandbox does not allow; do the work in this code instead (asyncio"
                    + " runs coroutines concurrently on one thread)",
            List.of("subprocess", "multiprocessing", "concurrent", "pty"),
            NO_NETWORK,
            List.of("socket", "ssl", "select", "selectors", "socketserver", "http", "urllib.request", "ftplib",
                    "smtplib", "poplib", "imaplib", "xmlrpc", "webbrowser"),
            "it handles process signals, which this sandbox does not allow; the call's `timeout` bounds how long"
                    + " code runs",
            List.of("signal"),
            "it runs native code or works on the host's file descriptors, which this sandbox cannot; struct and"
                    + " array handle binary data, and open() reads and writes the scratch files",
            List.of("ctypes", "mmap", "fcntl"),
            "it drives the host's terminal, which this sandbox has none of; print() and input() use the call's own"
                    + " stdout and stdin",
            List.of("termios", "tty", "curses", "readline"),
            "it reads the host's users and limits, which this sandbox keeps from code; os.environ has the"
                    + " sandbox's own USER and HOME",
            List.of("resource", "grp", "pwd"),
            "sqlite3 needs SQLite's native library, which this sandbox cannot load; keep tables in lists of dicts,"
                    + " or in csv or json files in the scratch space",
            List.of("sqlite3"),
            "GraalPy runs bytecode of its own, which dis cannot show; ast shows the code's structure",
            List.of("dis")));

    /**
     * Well-known packages whose work is the network: installed or not, the sandbox has none, so they could only
     * fail, and the refusal says so instead of "not allowed" or "not installed".
     */
    private static final Set<String> NETWORK_PACKAGES = Set.of("requests", "urllib3", "httpx", "httpcore", "aiohttp",
            "httplib2", "websocket", "websockets", "boto3", "botocore", "redis", "pymongo", "grpc");

    /**
     * Well-known packages built on C, C++ or Rust extensions, each with what the standard library offers in its
     * place (empty: nothing in particular). The sandbox refuses native code, so no install can make them work.
     */
    private static final Map<String, String> NEEDS_NATIVE = Map.ofEntries(
            Map.entry("numpy", "lists with math and statistics"),
            Map.entry("pandas", "csv and lists of dicts, with statistics"),
            Map.entry("polars", "csv and lists of dicts, with statistics"),
            Map.entry("pyarrow", "csv and json"),
            Map.entry("scipy", "math and statistics"),
            Map.entry("sklearn", "statistics (linear_regression, correlation)"),
            Map.entry("pydantic", "dataclasses"),
            Map.entry("pydantic_core", "dataclasses"),
            Map.entry("regex", "re"),
            Map.entry("lxml", "xml.etree.ElementTree"),
            Map.entry("cryptography", "hashlib, hmac and secrets"),
            Map.entry("orjson", "json"),
            Map.entry("ujson", "json"),
            Map.entry("torch", ""),
            Map.entry("psutil", ""));

    private ImportRefusals() {
    }

    /** The refusal of a package built on native code, which no profile and no install can help; empty for others. */
    static Optional<String> nativePackage(String topLevel) {
        String instead = NEEDS_NATIVE.get(topLevel);
        if (instead == null) {
            return Optional.empty();
        }
        return Optional.of("'" + topLevel + "' needs native code, which this sandbox cannot run: only pure-Python"
                + " packages can be installed; " + (instead.isEmpty() ? WHERE_ALLOWED + ", all of them pure Python"
                        : "use " + instead + " instead"));
    }

    /**
     * The refusal of a module the profile does not allow: a standard module kept from code says why; a network
     * package, that there is no network; an installed package, which setting allows it; anything else, where
     * the allowed modules are listed.
     *
     * @param installed whether the package folder in use provides the module's top-level package
     */
    static String notAllowed(String module, boolean installed) {
        String prefix = "import of '" + module + "' is not allowed in this sandbox";
        String top = topLevel(module);
        String reason = standardReason(module);
        if (reason != null) {
            return prefix + ": " + reason;
        }
        if (NETWORK_PACKAGES.contains(top)) {
            return prefix + ": " + NO_NETWORK;
        }
        if (installed) {
            return prefix + ": '" + top + "' is installed, but the import profile does not allow it; the operator"
                    + " can allow it by adding " + top + " to the setting " + ALLOW_SETTING;
        }
        return prefix + "; " + WHERE_ALLOWED;
    }

    /** The standard modules every profile but the unrestricted one refuses, each with the reason it gives. */
    static Map<String, String> standardModules() {
        return STANDARD;
    }

    /** Why a standard module, or the package holding it, stays refused ({@link #STANDARD}); null if it does not. */
    private static String standardReason(String module) {
        return ImportPolicy.withPackages(module).stream().map(STANDARD::get).filter(Objects::nonNull).findFirst()
                .orElse(null);
    }

    static String topLevel(String module) {
        return module.split("\\.", 2)[0];
    }

    private static Map<String, String> byModule(Map<String, List<String>> modulesByReason) {
        Map<String, String> reasons = new TreeMap<>();
        modulesByReason.forEach((reason, modules) -> modules.forEach(module -> reasons.put(module, reason)));
        return Collections.unmodifiableMap(reasons);
    }
}
