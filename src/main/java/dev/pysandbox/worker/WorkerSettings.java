package dev.pysandbox.worker;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.files.FileLimits;

/**
 * The limits a worker applies to each call, handed over by the supervisor as system properties so that
 * the worker needs no configuration file of its own. The worker keeps no defaults either: the server's
 * configuration is the one place a limit is set, and a worker started without one refuses to start.
 *
 * @param captureBytes       how much of each output stream is kept (head and tail)
 * @param stopAfterBytes     how much a stream may write before the call is stopped as a flood
 * @param readyContexts      how many contexts are kept built ahead of demand
 * @param interruptWaitMillis how long an interrupt may take before the worker gives up on its context
 * @param imports            which modules user code may import
 * @param strictBuiltins     whether user code may not name eval, exec, open and the other escape hatches
 * @param preload            modules each ready context imports before its call arrives (those the import
 *                           policy allows; the others are dropped here)
 * @param packagesDir        the operator's package folder on the host ({@code packages.dir}); empty for none
 * @param files              the caps on each context's scratch files
 * @param warmUpRuns         how many snippets of the training workload a new worker runs while idle ({@link WarmUp})
 * @param autoInstall        modules the server installs when code imports them missing ({@code packages.auto-install});
 *                           the import error then says "retry" (those the import policy refuses are dropped here)
 */
public record WorkerSettings(int captureBytes, long stopAfterBytes, int readyContexts, long interruptWaitMillis,
        ImportPolicy imports, boolean strictBuiltins, List<String> preload, String packagesDir, FileLimits files,
        List<String> autoInstall, int warmUpRuns) {
    static final String PREFIX = "pysandbox.worker.";
    /** The names {@link #fromProperties} requires: every setting {@link #asSystemProperties} writes, whatever its value. */
    private static final List<String> REQUIRED = List.copyOf(forImportCheck().asProperties().keySet());

    public WorkerSettings {
        preload = preload.stream().filter(imports::allows).toList();
        autoInstall = autoInstall.stream().filter(imports::allows).sorted().toList();
    }

    /** These settings for a worker that does not warm itself ({@code warmUpRuns} 0). */
    public WorkerSettings withoutWarmUp() {
        return new WorkerSettings(captureBytes, stopAfterBytes, readyContexts, interruptWaitMillis, imports,
                strictBuiltins, preload, packagesDir, files, autoInstall, 0);
    }

    /** How much of each field a result may carry; the supervisor holds results to the same budget. */
    public AnswerBudget answerBudget() {
        return AnswerBudget.of(captureBytes, files.returnBytes());
    }

    /**
     * The settings as the worker's command line carries them, every one of them: the worker has no defaults of
     * its own ({@link #fromProperties}), so that it never runs with limits other than the server's configuration.
     */
    public String[] asSystemProperties() {
        return asProperties().entrySet().stream()
                .map(setting -> "-D" + PREFIX + setting.getKey() + "=" + setting.getValue())
                .toArray(String[]::new);
    }

    /** Each setting by its name without {@link #PREFIX}, in the order the command line gives them. */
    private Map<String, String> asProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("captureBytes", Integer.toString(captureBytes));
        properties.put("stopAfterBytes", Long.toString(stopAfterBytes));
        properties.put("readyContexts", Integer.toString(readyContexts));
        properties.put("interruptWaitMillis", Long.toString(interruptWaitMillis));
        properties.put("imports", imports.encode());
        properties.put("strictBuiltins", Boolean.toString(strictBuiltins));
        properties.put("preload", String.join(",", preload));
        properties.put("packagesDir", packagesDir);
        properties.put("files", files.encode());
        properties.put("autoInstall", String.join(",", autoInstall));
        properties.put("warmUpRuns", Integer.toString(warmUpRuns));
        return properties;
    }

    /** The settings the supervisor passed to this worker JVM; see {@link #fromProperties}. */
    static WorkerSettings fromSystemProperties() {
        return fromProperties(System.getProperties());
    }

    /**
     * The settings in {@code properties}, each of which must be there (an empty value is a value: no preload, no
     * package folder): a worker started without one is started wrongly, and refuses to start rather than guess.
     *
     * @throws IllegalArgumentException naming every setting that is missing, or the one that does not parse
     */
    static WorkerSettings fromProperties(Properties properties) {
        List<String> missing = REQUIRED.stream().filter(name -> properties.getProperty(PREFIX + name) == null).toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("missing worker settings: " + missing.stream()
                    .map(name -> PREFIX + name).collect(Collectors.joining(", "))
                    + " (the server passes every one; a worker is not started by hand)");
        }
        Function<String, String> value = name -> properties.getProperty(PREFIX + name);
        return new WorkerSettings(
                parse(value, "captureBytes", Integer::parseInt),
                parse(value, "stopAfterBytes", Long::parseLong),
                parse(value, "readyContexts", Integer::parseInt),
                parse(value, "interruptWaitMillis", Long::parseLong),
                parse(value, "imports", ImportPolicy::decode),
                parse(value, "strictBuiltins", WorkerSettings::parseBoolean),
                modules(value.apply("preload")),
                value.apply("packagesDir"),
                parse(value, "files", FileLimits::parse),
                modules(value.apply("autoInstall")),
                parse(value, "warmUpRuns", Integer::parseInt));
    }

    /**
     * The settings of the installer's check ({@link ImportCheck}), which builds contexts as a worker does but runs
     * no call: every module may be imported (it checks a package, not the operator's import policy), nothing is
     * preloaded or installed, and the package generation to check is named by the check itself rather than a
     * package folder. The output and file limits are those of a call with the default configuration; the check's
     * imports write nothing that reaches a caller.
     */
    static WorkerSettings forImportCheck() {
        return new WorkerSettings(65_536, 1_048_576, 1, 500, ImportPolicy.unrestricted(), false, List.of(), "",
                FileLimits.DEFAULT, List.of(), 0);
    }

    private static <T> T parse(Function<String, String> value, String name, Function<String, T> parser) {
        try {
            return parser.apply(value.apply(name));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("worker setting " + PREFIX + name + " is not valid: '"
                    + value.apply(name) + "' (" + e.getMessage() + ")", e);
        }
    }

    private static boolean parseBoolean(String text) {
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("neither true nor false");
        };
    }

    private static List<String> modules(String commaSeparated) {
        return Stream.of(commaSeparated.split(",")).filter(module -> !module.isBlank()).toList();
    }
}
