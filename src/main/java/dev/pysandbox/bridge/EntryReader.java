package dev.pysandbox.bridge;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.pysandbox.bridge.ServerEntry.Kind;
import dev.pysandbox.config.ConfigException;
import tools.jackson.databind.JsonNode;

/**
 * Turns one {@code "name": {...}} member of a servers file into a {@link ServerEntry}. Every problem that
 * would only surface later, when code first calls the server, is reported now with the server and key named,
 * because at startup the operator is looking and the message can point at the line to fix.
 */
final class EntryReader {
    /** Tools are addressed as {@code server.tool}, split at the first dot, so a dot cannot be in a name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,32}");
    private static final Set<String> KNOWN = Set.of("command", "args", "env", "cwd", "type", "url", "headers",
            "tools", "denyTools", "timeout", "disabled", "description");
    private static final Set<String> PROCESS_KEYS = Set.of("command", "args", "env", "cwd");
    private static final Set<String> REMOTE_KEYS = Set.of("url", "headers");

    private final String server;
    private final JsonNode node;
    private final boolean disabled;
    private final Placeholders placeholders;

    private EntryReader(String server, JsonNode node, Map<String, String> environment) throws ConfigException {
        this.server = server;
        this.node = node;
        this.disabled = readDisabled();
        this.placeholders = new Placeholders(environment, server, disabled);
    }

    static ServerEntry read(String name, JsonNode node, Map<String, String> environment, SelfReference self,
            List<String> warnings) throws ConfigException {
        if (!NAME.matcher(name).matches()) {
            throw new ConfigException(ServersFile.PREFIX + "server name '" + name + "' is not allowed: use 1 to"
                    + " 32 letters, digits, '_' or '-' (tools are called as server.tool, so no dots)");
        }
        if (!node.isObject()) {
            throw new ConfigException(ServersFile.PREFIX + "server '" + name + "' must be a JSON object");
        }
        return new EntryReader(name, node, environment).entry(self, warnings);
    }

    private ServerEntry entry(SelfReference self, List<String> warnings) throws ConfigException {
        Kind kind = kind();
        Set<String> foreign = kind == Kind.STDIO ? REMOTE_KEYS : PROCESS_KEYS;
        for (String key : node.propertyNames()) {
            if (!KNOWN.contains(key)) {
                warnings.add(ServersFile.PREFIX + "server '" + server + "': unknown key '" + key + "' ignored");
            } else if (foreign.contains(key)) {
                warnings.add(ServersFile.PREFIX + "server '" + server + "': key '" + key + "' ignored for a "
                        + kind.name().toLowerCase(Locale.ROOT) + " server");
            }
        }
        List<String> tools = strings("tools");
        List<String> denyTools = strings("denyTools");
        Duration timeout = timeout();
        if (kind != Kind.STDIO) {
            return new ServerEntry(server, kind, null, List.of(), Map.of(), null, url(), expanded("headers"),
                    tools, denyTools, timeout, disabled);
        }
        String command = expand(string("command"), "command");
        if (command == null || command.isBlank()) {
            throw fail("a stdio server needs a non-blank 'command'");
        }
        List<String> args = new ArrayList<>();
        List<String> rawArgs = strings("args");
        for (int i = 0; i < rawArgs.size(); i++) {
            args.add(expand(rawArgs.get(i), "args[" + i + "]"));
        }
        if (self.launchedBy(command, args)) {
            throw new ConfigException(ServersFile.PREFIX + "server '" + server + "' launches " + self.name()
                    + " itself; code mode must not call its own server (recursion). Remove it from the file.");
        }
        return new ServerEntry(server, kind, command, args, expanded("env"), cwd(), null, Map.of(), tools,
                denyTools, timeout, disabled);
    }

    private Kind kind() throws ConfigException {
        String type = string("type");
        if (type == null) {
            if (present("command")) {
                return Kind.STDIO;
            }
            if (present("url")) {
                return Kind.HTTP;
            }
            throw fail("needs 'command' (a local server) or 'url' (a remote one)");
        }
        return switch (type.strip().toLowerCase(Locale.ROOT)) {
            case "stdio" -> Kind.STDIO;
            case "http", "streamable-http" -> Kind.HTTP;
            case "sse" -> Kind.SSE;
            default -> throw fail("type '" + type + "' is not one of stdio, http, streamable-http, sse");
        };
    }

    /** Error messages quote the value as written, never as expanded: the expansion may hold a secret. */
    private URI url() throws ConfigException {
        String raw = string("url");
        String text = expand(raw, "url");
        if (text == null || text.isBlank()) {
            throw fail("a remote server needs a 'url'");
        }
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            throw fail("'url' " + raw + " is not a valid URL");
        }
        String scheme = uri.getScheme();
        if (scheme == null || !Set.of("http", "https").contains(scheme.toLowerCase(Locale.ROOT))
                || uri.getHost() == null) {
            throw fail("'url' " + raw + " must be an http:// or https:// URL with a host");
        }
        return uri;
    }

    private Path cwd() throws ConfigException {
        String cwd = expand(string("cwd"), "cwd");
        if (cwd == null || cwd.isBlank()) {
            return null;
        }
        try {
            return Path.of(cwd);
        } catch (InvalidPathException e) {
            throw fail("'cwd' is not a valid path: " + e.getMessage());
        }
    }

    private Duration timeout() throws ConfigException {
        JsonNode value = field("timeout");
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() <= 0) {
            throw fail("'timeout' must be a positive whole number of milliseconds");
        }
        return Duration.ofMillis(value.longValue());
    }

    private boolean readDisabled() throws ConfigException {
        JsonNode value = field("disabled");
        if (value == null) {
            return false;
        }
        if (!value.isBoolean()) {
            throw fail("'disabled' must be true or false");
        }
        return value.booleanValue();
    }

    private Map<String, String> expanded(String key) throws ConfigException {
        JsonNode value = field(key);
        Map<String, String> map = new LinkedHashMap<>();
        if (value == null) {
            return map;
        }
        if (!value.isObject()) {
            throw fail("'" + key + "' must be an object of string values");
        }
        for (Map.Entry<String, JsonNode> member : value.properties()) {
            if (!member.getValue().isString()) {
                throw fail("'" + key + "." + member.getKey() + "' must be a string");
            }
            map.put(member.getKey(), expand(member.getValue().stringValue(), key + "." + member.getKey()));
        }
        return map;
    }

    private List<String> strings(String key) throws ConfigException {
        JsonNode value = field(key);
        List<String> list = new ArrayList<>();
        if (value == null) {
            return list;
        }
        if (!value.isArray()) {
            throw fail("'" + key + "' must be an array of strings");
        }
        for (JsonNode item : value.values()) {
            if (!item.isString()) {
                throw fail("'" + key + "' must be an array of strings");
            }
            list.add(item.stringValue());
        }
        return list;
    }

    private String string(String key) throws ConfigException {
        JsonNode value = field(key);
        if (value == null) {
            return null;
        }
        if (!value.isString()) {
            throw fail("'" + key + "' must be a string");
        }
        return value.stringValue();
    }

    private String expand(String value, String key) throws ConfigException {
        return value == null ? null : placeholders.expand(value, key);
    }

    private boolean present(String key) {
        return field(key) != null;
    }

    /** JSON null counts as absent: generated files often write every key, null where unused. */
    private JsonNode field(String key) {
        JsonNode value = node.get(key);
        return value == null || value.isNull() ? null : value;
    }

    private ConfigException fail(String problem) {
        return new ConfigException(ServersFile.PREFIX + "server '" + server + "': " + problem);
    }
}
