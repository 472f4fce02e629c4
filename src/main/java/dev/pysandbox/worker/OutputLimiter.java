package dev.pysandbox.worker;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures one output stream of one call within a fixed budget: the first half of the budget is kept as
 * written (the head), the second half as a ring of the latest bytes (the tail), so both the start of a long
 * output and how it ended survive. Once the total passes {@code stopAfterBytes}, {@code onFlood} runs once:
 * the caller uses it to stop the guest, because a flood would otherwise run until the timeout.
 *
 * <p>Writes never throw: an exception would reach the guest, which can catch it and go on flooding.
 */
public final class OutputLimiter extends OutputStream {
    static final String MARKER_FORMAT = "\n... [%d bytes omitted] ...\n";

    private final int headLimit;
    private final byte[] tail;
    private final long stopAfterBytes;
    private final Runnable onFlood;
    private final ByteArrayOutputStream head;
    private long total;
    private int tailStart;
    private int tailLength;
    private boolean floodReported;

    public OutputLimiter(int captureBytes, long stopAfterBytes, Runnable onFlood) {
        if (captureBytes < 2) {
            throw new IllegalArgumentException("captureBytes must be at least 2");
        }
        this.headLimit = captureBytes / 2;
        this.tail = new byte[captureBytes - headLimit];
        this.stopAfterBytes = stopAfterBytes;
        this.onFlood = onFlood;
        this.head = new ByteArrayOutputStream(Math.min(headLimit, 8192));
    }

    @Override
    public synchronized void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        total += length;
        int toHead = Math.min(length, headLimit - head.size());
        if (toHead > 0) {
            head.write(bytes, offset, toHead);
        }
        for (int i = toHead; i < length; i++) {
            appendToTail(bytes[offset + i]);
        }
        if (total > stopAfterBytes && !floodReported) {
            floodReported = true;
            onFlood.run();
        }
    }

    private void appendToTail(byte b) {
        int end = (tailStart + tailLength) % tail.length;
        tail[end] = b;
        if (tailLength < tail.length) {
            tailLength++;
        } else {
            tailStart = (tailStart + 1) % tail.length;
        }
    }

    /** Adds a line of the sandbox's own (e.g. why the call was refused) as if the guest had written it. */
    public void append(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        write(bytes, 0, bytes.length);
    }

    public synchronized boolean truncated() {
        return total > head.size() + tailLength;
    }

    public synchronized long totalBytes() {
        return total;
    }

    /** Head, then a marker naming how much was dropped (if anything was), then tail, decoded as UTF-8. */
    public synchronized String text() {
        byte[] tailBytes = new byte[tailLength];
        for (int i = 0; i < tailLength; i++) {
            tailBytes[i] = tail[(tailStart + i) % tail.length];
        }
        String headText = head.toString(StandardCharsets.UTF_8);
        String tailText = new String(tailBytes, StandardCharsets.UTF_8);
        if (!truncated()) {
            return headText + tailText;
        }
        long omitted = total - head.size() - tailLength;
        return headText + MARKER_FORMAT.formatted(omitted) + tailText;
    }
}
