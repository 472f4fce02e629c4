package dev.pysandbox.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Code mode's settings ({@code code-mode.*}): which servers, which of their tools, and the limits the
 * supervisor enforces on every tool call guest code makes.
 *
 * @param serversFile        the {@code mcpServers} JSON file; null turns code mode off
 * @param allow              {@code server.tool} globs allowed on top of each server's own {@code tools}
 * @param deny               {@code server.tool} globs refused whatever else allows them
 * @param maxToolCalls       tool calls per execution unless the call asks for fewer
 * @param maxToolCallsLimit  the most a call may ask for
 * @param toolTimeout        per tool call, always cut to the execution's time left
 * @param maxParamBytes      a call's parameters as JSON
 * @param maxResultBytes     a tool's answer as handed to the code
 * @param maxInputsBytes     the {@code inputs} argument as JSON
 * @param maxConcurrentPerServer calls in flight per downstream server, across all executions
 * @param startupTimeout     a downstream server's start: initialize and the tool list
 * @param validateParams     check parameters against the tool's input schema before sending them
 */
public record CodeModeSettings(Path serversFile, List<String> allow, List<String> deny, int maxToolCalls,
        int maxToolCallsLimit, Duration toolTimeout, int maxParamBytes, int maxResultBytes, int maxInputsBytes,
        int maxConcurrentPerServer, Duration startupTimeout, boolean validateParams) {
    public CodeModeSettings {
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
    }

    public boolean enabled() {
        return serversFile != null;
    }
}
