package dev.pysandbox.bridge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.pysandbox.config.ConfigException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operator's list of downstream MCP servers, in the {@code mcpServers} shape Claude Desktop and Claude
 * Code use (VS Code's {@code servers} accepted too), so an existing client configuration can be pointed at
 * as it is. Anything that would make a server unusable is an error at startup; anything merely unexpected
 * (an unknown key) is a warning, so a file written for another client still loads.
 */
public final class ServersFile {
    /** Every message starts with the setting that names the file, which is what the operator can look up. */
    static final String PREFIX = "code-mode.servers: ";

    /** Two servers with one name would otherwise silently keep the last one. */
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .build();

    private final List<ServerEntry> servers;
    private final List<String> warnings;

    private ServersFile(List<ServerEntry> servers, List<String> warnings) {
        this.servers = List.copyOf(servers);
        this.warnings = List.copyOf(warnings);
    }

    /** @param environment where {@code ${VAR}} is looked up; normally System.getenv(), a map in tests */
    public static ServersFile read(Path file, Map<String, String> environment, SelfReference self)
            throws ConfigException {
        String json;
        try {
            json = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(PREFIX + "servers file " + file + " does not exist");
        } catch (IOException e) {
            throw new ConfigException(PREFIX + "cannot read servers file " + file + ": " + e);
        }
        return parse(json, file.toString(), environment, self);
    }

    /** @param origin where the text came from, for messages (the file's path) */
    public static ServersFile parse(String json, String origin, Map<String, String> environment,
            SelfReference self) throws ConfigException {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw new ConfigException(PREFIX + origin + " is not valid JSON: " + oneLine(e));
        }
        if (root == null || root.isMissingNode()) {
            throw new ConfigException(PREFIX + origin + " is empty");
        }
        if (!root.isObject()) {
            throw new ConfigException(PREFIX + origin + " must be a JSON object with an 'mcpServers' object");
        }
        String key = root.has("mcpServers") ? "mcpServers" : root.has("servers") ? "servers" : null;
        if (key == null || !root.get(key).isObject()) {
            throw new ConfigException(PREFIX + origin + " has no 'mcpServers' object of servers by name");
        }
        List<String> warnings = new ArrayList<>();
        for (String other : root.propertyNames()) {
            if (!other.equals(key)) {
                warnings.add(PREFIX + "top-level key '" + other + "' in " + origin + " ignored");
            }
        }
        List<ServerEntry> servers = new ArrayList<>();
        for (Map.Entry<String, JsonNode> member : root.get(key).properties()) {
            servers.add(EntryReader.read(member.getKey(), member.getValue(), environment, self, warnings));
        }
        return new ServersFile(servers, warnings);
    }

    /** In file order, disabled ones included; the caller decides what to do with those. */
    public List<ServerEntry> servers() {
        return servers;
    }

    /** Problems that did not stop the load, each a complete sentence for the log. */
    public List<String> warnings() {
        return warnings;
    }

    /** Jackson's own message spans lines (source excerpt, location); a config error must fit in one. */
    private static String oneLine(JacksonException e) {
        String message = String.valueOf(e.getOriginalMessage()).replaceAll("\\s+", " ").strip();
        return e.getLocation() == null ? message
                : message + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }
}
