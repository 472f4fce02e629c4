package dev.pysandbox.bridge;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What "this server itself" looks like on a command line. A servers file is often copied from a client
 * configuration that also lists python-sandbox-mcp; launching it from code mode would let code call code
 * mode again without end, so such an entry is refused.
 *
 * <p>The rule is deliberately simple and errs towards refusing. A STDIO entry launches this server when the
 * file name (last path segment) of its command or of any argument, or of any part of one split at
 * {@code = : ;} (so {@code -cp a.jar:b.jar} and {@code --jar=x.jar} are seen too):
 * <ul>
 *   <li>contains {@link #name()} (case-insensitive), which catches {@code npx python-sandbox-mcp},
 *       a Docker image of that name and the usual launcher and jar names, but not a server that merely lives
 *       in a folder of that name; or</li>
 *   <li>has the same file name as one of {@link #files()} (which also covers the same absolute path),
 *       unless that name is a generic interpreter such as {@code java} or {@code node}: those start
 *       unrelated servers too, so matching them would refuse every Java or Node server.</li>
 * </ul>
 *
 * @param files the launcher script and jar this process was started from; including the JVM's own
 *              {@code java} is harmless, it is ignored as generic
 * @param name  a string that in a command line can only mean this server
 */
public record SelfReference(List<Path> files, String name) {
    private static final Set<String> GENERIC = Set.of("java", "java.exe", "javaw", "javaw.exe", "node",
            "node.exe", "npx", "npx.cmd", "npm", "python", "python3", "python.exe", "sh", "bash", "zsh",
            "cmd.exe", "powershell", "pwsh", "env", "uv", "uvx", "pipx", "docker", "podman", "bun", "deno");

    public SelfReference {
        files = files == null ? List.of() : List.copyOf(files);
    }

    public static SelfReference of(Path... files) {
        return new SelfReference(List.of(files), "python-sandbox-mcp");
    }

    /** True if starting {@code command} with {@code args} would start this server again. */
    public boolean launchedBy(String command, List<String> args) {
        if (mentions(command)) {
            return true;
        }
        for (String arg : args) {
            if (mentions(arg)) {
                return true;
            }
        }
        return false;
    }

    private boolean mentions(String token) {
        for (String part : token.split("[=:;]")) {
            String fileName = fileName(part);
            if (fileName == null) {
                continue;
            }
            // The last path segment only: a server that merely lives under a folder of our name (an install
            // directory, a checkout) is not this server.
            if (fileName.toLowerCase(Locale.ROOT).contains(name.toLowerCase(Locale.ROOT))) {
                return true;
            }
            if (!GENERIC.contains(fileName.toLowerCase(Locale.ROOT))
                    && files.stream().anyMatch(file -> fileName.equals(fileName(file.toString())))) {
                return true;
            }
        }
        return false;
    }

    private static String fileName(String text) {
        try {
            Path name = Path.of(text.strip()).getFileName();
            return name == null ? null : name.toString();
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
