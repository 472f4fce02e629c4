package dev.pysandbox.mcp;

import java.time.Duration;
import java.util.Map;

/**
 * One call of one of the server's tools, as it ended: what {@link CallObserver}s are told.
 *
 * @param tool      which of our tools
 * @param caller    who called
 * @param arguments the call's arguments as sent (they may break the tool's rules: the answer says so)
 * @param answer    the answer, with how it ended
 * @param elapsed   from the call's arrival at the tool to its answer
 */
record EndedCall(String tool, Caller caller, Map<String, Object> arguments, ToolAnswer answer, Duration elapsed) {
    EndedCall {
        arguments = arguments == null ? Map.of() : arguments;
    }
}
