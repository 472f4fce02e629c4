package dev.pysandbox.release;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What this build is: the name and version that {@code --version}, {@code initialize}'s {@code serverInfo}, the
 * release archive, the MCP Bundle and {@code server.json} all report. The version is pom.xml's, written into
 * {@code release.properties} by the build, so no copy of it can drift.
 */
public final class Release {
    /** The server's name, in {@code serverInfo} and in the names of the release files. */
    public static final String NAME = "python-sandbox-mcp";
    private static final String VERSION = read();

    private Release() {
    }

    /** pom.xml's version, e.g. {@code 0.1.0}. */
    public static String version() {
        return VERSION;
    }

    /**
     * The folder of the server's jar and of what the build put beside it ({@code lib/}, {@code worker-runtime/},
     * the AOT caches): {@code target/} in a checkout, {@code lib/} in a release. Found from the class path
     * ({@code java -jar} makes the jar the whole class path), not from a class's code source: a JVM that maps an
     * AOT cache reports that as it was when the cache was trained (measured: an unpacked release looked for its
     * workers' Java in the folder it was built in). Run from classes (tests), the class folder's parent.
     */
    public static Path home() {
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (path.getFileName() != null && path.getFileName().toString().equals(NAME + ".jar")) {
                return path.toAbsolutePath().normalize().getParent();
            }
        }
        try {
            return Path.of(Release.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent();
        } catch (URISyntaxException | RuntimeException e) {
            return Path.of("").toAbsolutePath();
        }
    }

    /** The server's jar, in {@link #home()}. */
    public static Path jar() {
        return home().resolve(NAME + ".jar");
    }

    /** What {@code --version} prints. */
    public static String describe() {
        return NAME + " " + VERSION;
    }

    private static String read() {
        try (InputStream in = Release.class.getResourceAsStream("release.properties")) {
            Properties properties = new Properties();
            if (in != null) {
                properties.load(in);
            }
            String version = properties.getProperty("version", "");
            // Unfiltered (an IDE that copies resources without the build's filtering): say so, not a wrong number.
            return version.isBlank() || version.startsWith("${") ? "unknown (not built by Maven)" : version;
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
