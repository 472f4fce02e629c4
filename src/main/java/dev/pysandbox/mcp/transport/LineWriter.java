package dev.pysandbox.mcp.transport;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes whole lines to the output under one lock, so concurrent senders can neither
 * interleave bytes nor lose a message. The caller's thread does the write, which means a
 * message is on the wire (flushed) by the time sending it completes.
 */
final class LineWriter {

    private final OutputStream out;
    private final ReentrantLock lock = new ReentrantLock();

    LineWriter(OutputStream out) {
        // The buffer turns "body, then newline, then flush" into a single write syscall.
        this.out = new BufferedOutputStream(out, 64 * 1024);
    }

    void writeLine(byte[] body) throws IOException {
        lock.lock();
        try {
            out.write(body);
            out.write('\n');
            out.flush();
        } finally {
            lock.unlock();
        }
    }
}
