package dev.pysandbox.mcp.transport;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * An in-memory stdin. java.io piped streams are unusable here: they fail with "Write end dead"
 * once a writer thread has exited, and the concurrency test uses many short-lived writers.
 */
final class FeedInputStream extends InputStream {

    private static final byte[] END = new byte[0];

    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private byte[] current = new byte[0];
    private int pos;
    private boolean ended;

    /** Thread-safe; each call arrives as one contiguous line. */
    void writeLine(String line) {
        chunks.add((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    void writeRaw(byte[] bytes) {
        chunks.add(bytes.clone());
    }

    void end() {
        chunks.add(END);
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        while (pos == current.length) {
            if (ended) {
                return -1;
            }
            try {
                current = chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
            pos = 0;
            if (current == END) {
                ended = true;
            }
        }
        int n = Math.min(len, current.length - pos);
        System.arraycopy(current, pos, b, off, n);
        pos += n;
        return n;
    }
}
