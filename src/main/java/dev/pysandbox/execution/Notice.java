package dev.pysandbox.execution;

/**
 * Something about the sandbox itself (not about a call's code) that a client's user should see: a worker
 * replaced after a crash or a timeout, the OS layer missing, a session ended. The MCP edge sends these as
 * log messages; they never carry guest output or host paths.
 */
public record Notice(Level level, String text) {
    /** The MCP log levels this server uses, lowest first. */
    public enum Level {
        DEBUG, INFO, WARNING, ERROR
    }

    public static Notice info(String text) {
        return new Notice(Level.INFO, text);
    }

    public static Notice warning(String text) {
        return new Notice(Level.WARNING, text);
    }

    public static Notice error(String text) {
        return new Notice(Level.ERROR, text);
    }
}
