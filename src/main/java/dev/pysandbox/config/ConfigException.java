package dev.pysandbox.config;

/** A setting that is unknown or has a value that cannot be used; the message names the key. */
public final class ConfigException extends Exception {
    public ConfigException(String message) {
        super(message);
    }
}
