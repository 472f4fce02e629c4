package dev.pysandbox.wire;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reads '\n'-terminated UTF-8 lines from a byte stream without ever holding more than
 * {@code maxLineBytes} of one line in memory, so a hostile or broken peer cannot make us
 * allocate an unbounded buffer (BufferedReader.readLine would).
 *
 * <p>Not thread-safe: one reader thread owns it.
 */
public final class BoundedLineReader {

    /** What {@link #next()} found. */
    public sealed interface Result permits Line, Oversized, Eof {
    }

    /** A complete line, without its "\n" or "\r\n". */
    public record Line(String text) implements Result {
    }

    /** A line longer than the limit; its bytes were discarded up to and including the "\n". */
    public record Oversized(int limitBytes) implements Result {
    }

    /** The stream ended; every later call returns this too. */
    public record Eof() implements Result {
    }

    private static final Eof EOF = new Eof();
    private static final int INITIAL_LINE_CAPACITY = 1024;

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] chunk = new byte[8192];
    private int chunkPos;
    private int chunkEnd;
    private byte[] line;
    private int lineLen;
    private boolean ended;

    /**
     * @param maxLineBytes the largest line accepted, counted in bytes without the line terminator
     */
    public BoundedLineReader(InputStream in, int maxLineBytes) {
        this.in = Objects.requireNonNull(in, "in");
        if (maxLineBytes < 1 || maxLineBytes > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("maxLineBytes out of range: " + maxLineBytes);
        }
        this.maxLineBytes = maxLineBytes;
        this.line = new byte[Math.min(INITIAL_LINE_CAPACITY, maxLineBytes + 1)];
    }

    /** Blocks until a line, an oversized line or the end of the stream has been read. */
    public Result next() throws IOException {
        if (ended) {
            return EOF;
        }
        lineLen = 0;
        boolean sawBytes = false;
        boolean overflowed = false;
        while (true) {
            if (chunkPos == chunkEnd && !fill()) {
                ended = true;
                // A last line without "\n" still counts: some clients close stdin right after writing it.
                if (overflowed) {
                    return oversized();
                }
                return sawBytes ? finishLine() : EOF;
            }
            sawBytes = true;
            int newline = indexOfNewline();
            int stop = newline < 0 ? chunkEnd : newline;
            if (!overflowed) {
                overflowed = !append(chunkPos, stop - chunkPos);
            }
            chunkPos = newline < 0 ? chunkEnd : newline + 1;
            if (newline >= 0) {
                return overflowed ? oversized() : finishLine();
            }
        }
    }

    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(chunk, 0, chunk.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        chunkPos = 0;
        chunkEnd = n;
        return true;
    }

    private int indexOfNewline() {
        for (int i = chunkPos; i < chunkEnd; i++) {
            if (chunk[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Returns false once the line can no longer fit; one extra byte is allowed for a trailing '\r'. */
    private boolean append(int from, int count) {
        long needed = (long) lineLen + count;
        if (needed > maxLineBytes + 1L) {
            lineLen = 0;
            return false;
        }
        if (needed > line.length) {
            long grown = Math.max(needed, Math.min((long) line.length * 2, maxLineBytes + 1L));
            line = Arrays.copyOf(line, (int) grown);
        }
        System.arraycopy(chunk, from, line, lineLen, count);
        lineLen += count;
        return true;
    }

    private Result finishLine() {
        int len = lineLen;
        if (len > 0 && line[len - 1] == '\r') {
            len--;
        }
        if (len > maxLineBytes) {
            return oversized();
        }
        String text = new String(line, 0, len, StandardCharsets.UTF_8);
        shrinkIfHuge();
        return new Line(text);
    }

    private Oversized oversized() {
        lineLen = 0;
        shrinkIfHuge();
        return new Oversized(maxLineBytes);
    }

    // One huge line must not pin a multi-megabyte buffer for the rest of the session.
    private void shrinkIfHuge() {
        if (line.length > 64 * INITIAL_LINE_CAPACITY) {
            line = new byte[Math.min(INITIAL_LINE_CAPACITY, maxLineBytes + 1)];
        }
    }
}
