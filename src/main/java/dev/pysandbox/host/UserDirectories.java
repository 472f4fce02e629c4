package dev.pysandbox.host;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where a command-line tool keeps a user's files, found as such tools find them: {@code $HOME}, then
 * {@code XDG_CACHE_HOME}, {@code XDG_DATA_HOME} and {@code XDG_CONFIG_HOME} where set. Java's {@code user.home} is
 * the password database's entry, which ignores a {@code HOME} that a user, a desktop host or a container set, so
 * it is the fallback only. The XDG specification ignores relative values, and so do these.
 */
public record UserDirectories(Path home, Path cache, Path data, Path config) {
    /** This process's, from its environment. */
    public static UserDirectories current() {
        return of(System.getenv(), System.getProperty("user.home"));
    }

    /**
     * @param environment  the variables to read
     * @param passwordHome the home the password database names, used when {@code HOME} is unset
     */
    public static UserDirectories of(Map<String, String> environment, String passwordHome) {
        Path home = absolute(environment.get("HOME"));
        if (home == null) {
            home = Path.of(passwordHome).toAbsolutePath();
        }
        return new UserDirectories(home, orElse(environment.get("XDG_CACHE_HOME"), home.resolve(".cache")),
                orElse(environment.get("XDG_DATA_HOME"), home.resolve(".local/share")),
                orElse(environment.get("XDG_CONFIG_HOME"), home.resolve(".config")));
    }

    private static Path orElse(String value, Path fallback) {
        Path path = absolute(value);
        return path == null ? fallback : path;
    }

    private static Path absolute(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        Path path = Path.of(value);
        return path.isAbsolute() ? path.normalize() : null;
    }
}
