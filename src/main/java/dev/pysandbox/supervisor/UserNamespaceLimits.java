package dev.pysandbox.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Why a {@code bwrap} that is there may still not run: the kernel settings that forbid the unprivileged user
 * namespaces it makes, read from {@code /proc/sys}. Only to explain a failed probe ({@link OsSandbox}): whether
 * bwrap runs is decided by running it, since a container's seccomp filter or a masked {@code /proc} refuses it
 * too, with every setting here allowing it.
 */
final class UserNamespaceLimits {
    private UserNamespaceLimits() {
    }

    /**
     * Each setting under {@code procSys} that forbids them, with the command that allows them; when none does,
     * what else can (a container), so the list is never empty.
     */
    static List<String> explain(Path procSys) {
        List<String> found = new ArrayList<>();
        // Debian before 11 and some hardened kernels: a switch of their own.
        if ("0".equals(read(procSys.resolve("kernel/unprivileged_userns_clone")))) {
            found.add("kernel.unprivileged_userns_clone=0 forbids unprivileged user namespaces"
                    + " (sysctl -w kernel.unprivileged_userns_clone=1 allows them)");
        }
        // Ubuntu 23.10 and later: only programs with an AppArmor profile that allows it may make them.
        if ("1".equals(read(procSys.resolve("kernel/apparmor_restrict_unprivileged_userns")))) {
            found.add("kernel.apparmor_restrict_unprivileged_userns=1 (Ubuntu's default since 24.04) lets only"
                    + " programs with an AppArmor profile make user namespaces (sysctl -w"
                    + " kernel.apparmor_restrict_unprivileged_userns=0 allows them, or a profile for bwrap)");
        }
        if ("0".equals(read(procSys.resolve("user/max_user_namespaces")))) {
            found.add("user.max_user_namespaces=0 allows none (sysctl -w user.max_user_namespaces=10000 allows them)");
        }
        if (found.isEmpty()) {
            found.add("the kernel allows user namespaces, so the process may not make them or mount a new /proc:"
                    + " a container does that unless told otherwise (deploy/docker/Dockerfile names the options)");
        }
        return found;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
