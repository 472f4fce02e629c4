package dev.pysandbox.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Raw key/value settings in three layers: the packaged defaults (config/python-sandbox-mcp.properties),
 * then a file given with {@code --config}, then {@code --KEY=VALUE} flags. Only keys the defaults file
 * declares exist, so a typo is an error instead of a silently ignored setting.
 */
public final class Settings {
    static final String DEFAULTS_RESOURCE = "python-sandbox-mcp.properties";

    private final Map<String, String> values;

    private Settings(Map<String, String> values) {
        this.values = values;
    }

    public static Settings defaults() {
        try (InputStream in = Settings.class.getResourceAsStream(DEFAULTS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(DEFAULTS_RESOURCE + " is missing from the build");
            }
            return new Settings(read(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read packaged defaults", e);
        }
    }

    /** These settings with every key of the file applied over them. */
    public Settings withFile(Path file) throws ConfigException {
        Map<String, String> fromFile;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            fromFile = read(reader);
        } catch (IOException e) {
            throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
        }
        Settings result = this;
        for (Map.Entry<String, String> entry : fromFile.entrySet()) {
            result = result.with(entry.getKey(), entry.getValue(), "in " + file);
        }
        return result;
    }

    /** These settings with one key replaced; {@code origin} says where the value came from, for errors. */
    public Settings with(String key, String value, String origin) throws ConfigException {
        if (!values.containsKey(key)) {
            throw new ConfigException("unknown setting '" + key + "' " + origin + "; known settings: "
                    + String.join(", ", values.keySet()));
        }
        Map<String, String> copy = new TreeMap<>(values);
        copy.put(key, value.strip());
        return new Settings(copy);
    }

    public String get(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("no setting " + key);
        }
        return value;
    }

    private static Map<String, String> read(Reader reader) throws IOException {
        Properties properties = new Properties();
        properties.load(reader);
        Map<String, String> map = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name).strip()));
        return map;
    }
}
