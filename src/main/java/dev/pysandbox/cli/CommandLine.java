package dev.pysandbox.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.pysandbox.config.ConfigException;
import dev.pysandbox.config.Settings;
import dev.pysandbox.packages.KnownPackages;

/**
 * The parsed command line: which command, and the settings after the defaults, {@code --config FILE} and
 * {@code --KEY=VALUE} flags were applied in that order.
 *
 * @param run            what {@code run} should execute, or null to serve MCP
 * @param help           whether usage was asked for
 * @param version        whether the version was asked for ({@code --version})
 * @param prepareWorkers whether to prepare the worker runtime (the build does this; see WorkerRuntime)
 * @param packages       what {@code install}, {@code uninstall} or {@code list} should do, or null
 * @param token          what {@code token add} should do, or null
 */
public record CommandLine(Settings settings, RunCommand.Input run, boolean help, boolean version,
        boolean prepareWorkers, PackagesCommand.Input packages, TokenCommand.Input token) {
    private static final List<String> PACKAGE_ACTIONS = List.of("install", "uninstall", "list");

    public static final String USAGE = """
            usage: python-sandbox-mcp [serve] [--config FILE] [--KEY=VALUE ...]
                   python-sandbox-mcp run (-c CODE | FILE.py | -) [--stdin TEXT] [--timeout SECONDS] [--KEY=VALUE ...]
                   python-sandbox-mcp (install [--profile common] PKG... | uninstall PKG... | list) [--KEY=VALUE ...]
                   python-sandbox-mcp token add [--name NAME] --http.tokens-file=FILE
              serve   speak MCP on stdin/stdout (the default)
              run     execute one snippet in the sandbox and print its JSON result
              install, uninstall, list   the pure-Python packages in packages.dir (GraalPy's pip, wheels only;
                      pip settings such as PIP_INDEX_URL, PIP_FIND_LINKS and your pip.conf apply);
                      --profile common installs the packages of the common import profile and tzdata
              token add   admit a caller to remote mode (transport=http): print a new random token once on
                      stdout and append only its digest, a line NAME:sha256-hex, to http.tokens-file
                      (made if missing); NAME defaults to caller-N
              prepare-workers   link the JIT-capable worker JDK and train its AOT cache (the build runs this)
              dist [--repository https://github.com/OWNER/NAME]   (bin/python-sandbox-mcp in a checkout) make the
                      release archive, MCP Bundle and registry entry (server.json, for that repository's
                      releases; origin's when it is on GitHub) in target/dist/
              KEY     any setting of config/python-sandbox-mcp.properties, e.g. --workers=2
              --version   print the version and exit""";

    public static CommandLine parse(String[] args) throws ConfigException {
        List<String> rest = List.of(args);
        boolean run = false;
        boolean prepareWorkers = false;
        String packageAction = null;
        List<String> packageNames = new ArrayList<>();
        boolean token = false;
        String tokenAction = null; // after `token`, wherever the launcher put --config FILE
        String tokenName = null;
        if (!rest.isEmpty() && List.of("run", "serve", "prepare-workers").contains(rest.get(0))) {
            run = rest.get(0).equals("run");
            prepareWorkers = rest.get(0).equals("prepare-workers");
            rest = rest.subList(1, rest.size());
        } else if (!rest.isEmpty() && PACKAGE_ACTIONS.contains(rest.get(0))) {
            packageAction = rest.get(0);
            rest = rest.subList(1, rest.size());
        } else if (!rest.isEmpty() && rest.get(0).equals("token")) {
            token = true;
            rest = rest.subList(1, rest.size());
        }
        Settings settings = Settings.defaults();
        Path configFile = null;
        String code = null;
        String script = null;
        String stdin = null;
        Integer timeout = null;
        boolean help = false;
        boolean version = false;
        for (int i = 0; i < rest.size(); i++) {
            String arg = rest.get(i);
            if (arg.equals("-h") || arg.equals("--help")) {
                help = true;
            } else if (arg.equals("--version")) {
                version = true;
            } else if (arg.equals("--config")) {
                configFile = Path.of(value(rest, ++i, arg));
            } else if (run && arg.equals("-c")) {
                code = value(rest, ++i, arg);
            } else if (run && arg.equals("--stdin")) {
                stdin = value(rest, ++i, arg);
            } else if (run && arg.equals("--timeout")) {
                timeout = parseTimeout(value(rest, ++i, arg));
            } else if (token && arg.equals("--name")) {
                tokenName = value(rest, ++i, arg);
            } else if ("install".equals(packageAction) && arg.equals("--profile")) {
                try {
                    packageNames.addAll(KnownPackages.profile(value(rest, ++i, arg)));
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("install --profile: " + e.getMessage());
                }
            } else if (arg.startsWith("--") && arg.contains("=")) {
                continue; // settings are applied after the file, below
            } else if (arg.startsWith("--")) {
                throw new ConfigException("setting " + arg + " needs a value: " + arg + "=VALUE");
            } else if (run && script == null && code == null) {
                script = arg;
            } else if (packageAction != null && !packageAction.equals("list")) {
                packageNames.add(arg);
            } else if (token && tokenAction == null) {
                tokenAction = arg;
            } else {
                throw new ConfigException("unexpected argument '" + arg + "'");
            }
        }
        if (configFile != null) {
            settings = settings.withFile(configFile);
        }
        if (run) {
            // One snippet needs one worker; a second would only cost a JVM start. A --workers flag still wins.
            settings = settings.with("workers", "1", "for run");
        }
        for (String arg : rest) {
            if (arg.startsWith("--") && arg.contains("=")) {
                int eq = arg.indexOf('=');
                settings = settings.with(arg.substring(2, eq), arg.substring(eq + 1), "on the command line");
            }
        }
        RunCommand.Input input = null;
        if (run) {
            if (code == null && script == null && !help && !version) {
                throw new ConfigException("run needs -c CODE, a FILE.py, or - for standard input");
            }
            input = new RunCommand.Input(code, script, stdin, timeout);
        }
        if (token && !"add".equals(tokenAction) && !help && !version) {
            throw new ConfigException("token needs an action: token add [--name NAME] --http.tokens-file=FILE");
        }
        PackagesCommand.Input packages = null;
        if (packageAction != null) {
            if (packageNames.isEmpty() && !packageAction.equals("list") && !help && !version) {
                throw new ConfigException(packageAction + " needs at least one package name");
            }
            packages = new PackagesCommand.Input(packageAction, List.copyOf(packageNames));
        }
        return new CommandLine(settings, input, help, version, prepareWorkers, packages,
                token ? new TokenCommand.Input(tokenName) : null);
    }

    private static String value(List<String> args, int index, String flag) throws ConfigException {
        if (index >= args.size()) {
            throw new ConfigException(flag + " needs a value");
        }
        return args.get(index);
    }

    private static int parseTimeout(String raw) throws ConfigException {
        try {
            return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new ConfigException("--timeout must be a whole number of seconds, not '" + raw + "'");
        }
    }
}
