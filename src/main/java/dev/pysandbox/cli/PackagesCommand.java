package dev.pysandbox.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import dev.pysandbox.config.ServerConfig;
import dev.pysandbox.packages.PackageFolder;
import dev.pysandbox.packages.PackageInstaller;
import dev.pysandbox.supervisor.WorkerRuntime;
import dev.pysandbox.worker.ImportCheck;

/**
 * {@code install PKG...}, {@code uninstall PKG...} and {@code list}: the operator's package folder
 * ({@code packages.dir}), changed outside any sandbox with GraalPy's own pip. Running servers pick up the
 * change with their next call.
 */
public final class PackagesCommand {
    /** @param action {@code install}, {@code uninstall} or {@code list}; {@code names} are pip requirements or names */
    public record Input(String action, List<String> names) {
    }

    private final Input input;
    private final ServerConfig config;

    public PackagesCommand(Input input, ServerConfig config) {
        this.input = input;
        this.config = config;
    }

    /** Returns the process exit code: 0 done, 1 refused or failed (the message says why). */
    public int execute(PrintStream out) {
        PackageInstaller installer = new PackageInstaller(new PackageFolder(config.packagesDir()),
                WorkerRuntime.forInstaller(), ImportCheck::failures, out);
        try {
            switch (input.action()) {
                case "install" -> installer.install(input.names());
                case "uninstall" -> installer.uninstall(input.names());
                default -> installer.list();
            }
            return 0;
        } catch (PackageInstaller.RefusedException e) {
            out.println("python-sandbox-mcp " + input.action() + ": " + e.getMessage());
            return 1;
        } catch (IOException e) {
            out.println("python-sandbox-mcp " + input.action() + ": " + e + ". Nothing was changed.");
            return 1;
        }
    }
}
