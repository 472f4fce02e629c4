package dev.pysandbox.supervisor;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One of an {@link InMemoryWorker}'s standard streams: bytes written to {@link #out} are read from {@link #in}.
 * Like a process's pipe and unlike {@link java.nio.channels.Pipe} or {@link java.io.PipedInputStream}, it does not
 * care which threads use it and an interrupted thread does not close it (the supervisor writes a cancel from a
 * thread that was just interrupted). A write never blocks: the buffer has no bound.
 */
final class InMemoryPipe {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Deque<byte[]> chunks = new ArrayDeque<>();
    private int readFromHead;
    private boolean writerClosed;
    private boolean readerClosed;

    /** The reading end: blocks until bytes come, ends once the writing end is closed and drained. */
    final InputStream in = new InputStream() {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            lock.lock();
            try {
                while (chunks.isEmpty() && !writerClosed && !readerClosed) {
                    changed.awaitUninterruptibly();
                }
                if (readerClosed) {
                    throw new IOException("Stream closed");
                }
                if (chunks.isEmpty()) {
                    return -1;
                }
                byte[] head = chunks.peekFirst();
                int count = Math.min(length, head.length - readFromHead);
                System.arraycopy(head, readFromHead, buffer, offset, count);
                readFromHead += count;
                if (readFromHead == head.length) {
                    chunks.removeFirst();
                    readFromHead = 0;
                }
                return count;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() {
            closeReadingEnd();
        }
    };

    /** The writing end: fails, as a broken pipe does, once either end is closed. */
    final OutputStream out = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            lock.lock();
            try {
                if (writerClosed || readerClosed) {
                    throw new IOException("Broken pipe");
                }
                if (length > 0) {
                    chunks.addLast(Arrays.copyOfRange(buffer, offset, offset + length));
                    changed.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() {
            closeWritingEnd();
        }
    };

    /** What the reading side's exit does: a blocked read fails, and so does every later write. */
    void closeReadingEnd() {
        lock.lock();
        try {
            readerClosed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** What the writing side's exit does: the reader reads what is left, then the end of the stream. */
    void closeWritingEnd() {
        lock.lock();
        try {
            writerClosed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
