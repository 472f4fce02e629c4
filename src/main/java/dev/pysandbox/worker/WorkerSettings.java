package dev.pysandbox.worker;

import java.util.List;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.files.FileLimits;

/**
 * The limits a worker applies to each call, handed over by the supervisor as system properties so that
 * the worker needs no configuration file of its own.
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
 * @param autoInstall        modules the server installs when code imports them missing ({@code packages.auto-install});
 *                           the import error then says "retry" (those the import policy refuses are dropped here)
 */
public record WorkerSettings(int captureBytes, long stopAfterBytes, int readyContexts, long interruptWaitMillis,
        ImportPolicy imports, boolean strictBuiltins, List<String> preload, String packagesDir, FileLimits files,
        List<String> autoInstall) {
    static final String PREFIX = "pysandbox.worker.";

    public WorkerSettings {
        preload = preload.stream().filter(imports::allows).toList();
        autoInstall = autoInstall.stream().filter(imports::allows).sorted().toList();
    }

    /** How much of each field a result may carry; the supervisor holds results to the same budget. */
    public AnswerBudget answerBudget() {
        return AnswerBudget.of(captureBytes, files.returnBytes());
    }

    public String[] asSystemProperties() {
        return new String[] {
            "-D" + PREFIX + "captureBytes=" + captureBytes,
            "-D" + PREFIX + "stopAfterBytes=" + stopAfterBytes,
            "-D" + PREFIX + "readyContexts=" + readyContexts,
            "-D" + PREFIX + "interruptWaitMillis=" + interruptWaitMillis,
            "-D" + PREFIX + "imports=" + imports.encode(),
            "-D" + PREFIX + "strictBuiltins=" + strictBuiltins,
            "-D" + PREFIX + "preload=" + String.join(",", preload),
            "-D" + PREFIX + "packagesDir=" + packagesDir,
            "-D" + PREFIX + "files=" + files.encode(),
            "-D" + PREFIX + "autoInstall=" + String.join(",", autoInstall),
        };
    }

    static WorkerSettings fromSystemProperties() {
        return new WorkerSettings(
                Integer.getInteger(PREFIX + "captureBytes", 51_200),
                Long.getLong(PREFIX + "stopAfterBytes", 1_048_576),
                Integer.getInteger(PREFIX + "readyContexts", 1),
                Long.getLong(PREFIX + "interruptWaitMillis", 500),
                ImportPolicy.decode(System.getProperty(PREFIX + "imports", ImportPolicy.standard().encode())),
                Boolean.getBoolean(PREFIX + "strictBuiltins"),
                List.of(System.getProperty(PREFIX + "preload", "").split(",")).stream().filter(m -> !m.isBlank()).toList(),
                System.getProperty(PREFIX + "packagesDir", ""),
                FileLimits.parse(System.getProperty(PREFIX + "files", FileLimits.DEFAULT.encode())),
                List.of(System.getProperty(PREFIX + "autoInstall", "").split(",")).stream().filter(m -> !m.isBlank()).toList());
    }
}
