package dev.pysandbox.bridge;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One downstream MCP server from the operator's servers file, already checked and with its
 * {@code ${VAR}} placeholders expanded, so whoever launches or connects to it needs no further validation.
 *
 * @param command   the program to start; null unless {@link Kind#STDIO}
 * @param env       only the variables the file sets, not the inherited environment
 * @param cwd       working directory of the process; null means inherit
 * @param url       the endpoint; null unless {@link Kind#HTTP} or {@link Kind#SSE}
 * @param tools     globs over the server's own tool names that are offered to code; empty offers none
 * @param denyTools globs over the server's own tool names that are never offered, whatever else allows them
 * @param timeout   limit for one tool call; null means the caller's default
 * @param disabled  kept rather than dropped so a listing can show the operator that the entry was seen
 */
public record ServerEntry(String name, Kind kind, String command, List<String> args, Map<String, String> env,
        Path cwd, URI url, Map<String, String> headers, List<String> tools, List<String> denyTools,
        Duration timeout, boolean disabled) {

    /** How the server is reached: a child process speaking JSON lines, or a remote endpoint. */
    public enum Kind { STDIO, HTTP, SSE }

    public ServerEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        args = args == null ? List.of() : List.copyOf(args);
        env = ordered(env);
        headers = ordered(headers);
        tools = tools == null ? List.of() : List.copyOf(tools);
        denyTools = denyTools == null ? List.of() : List.copyOf(denyTools);
    }

    /** Map.copyOf would lose the file's order, which an operator reading a listing expects to see. */
    private static Map<String, String> ordered(Map<String, String> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /** Env and header values are typically secrets (API keys, bearer tokens), so logs get the names only. */
    @Override
    public String toString() {
        return "ServerEntry[name=" + name + ", kind=" + kind + ", command=" + command + ", args=" + args
                + ", env=" + env.keySet() + ", cwd=" + cwd + ", url=" + url + ", headers=" + headers.keySet()
                + ", tools=" + tools + ", denyTools=" + denyTools + ", timeout=" + timeout
                + ", disabled=" + disabled + "]";
    }
}
