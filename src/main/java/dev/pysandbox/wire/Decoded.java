package dev.pysandbox.wire;

/**
 * What a line of the worker protocol turned out to be ({@link WireCodec#read}): a message of the family, a
 * message of a type the family does not have, or no message at all. Each side decides what the last two mean
 * to it; neither is an exception, because the other end of the pipe is not trusted to write protocol.
 */
public sealed interface Decoded<T> {
    /** The longest type name kept from a line, which is echoed in logs. */
    int MAX_TYPE_CHARS = 100;

    record Message<T>(T message) implements Decoded<T> {
    }

    /** @param type the {@code type} the line named, at most {@link #MAX_TYPE_CHARS} characters of it */
    record UnknownType<T>(String type) implements Decoded<T> {
    }

    /** @param reason what is wrong with the line, for the log */
    record NotProtocol<T>(String reason) implements Decoded<T> {
    }
}
