package dev.pysandbox.worker;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The stdin, stdout and stderr a context is built with. A context's streams are fixed when it is built,
 * long before the call it will serve is known, so these forward to whatever the current call installed.
 * Between calls output is dropped and input is empty.
 */
final class CallStreams {
    private volatile InputStream in = InputStream.nullInputStream();
    private volatile OutputStream out = OutputStream.nullOutputStream();
    private volatile OutputStream err = OutputStream.nullOutputStream();

    final InputStream stdin = new InputStream() {
        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }
    };

    final OutputStream stdout = forwardTo(true);
    final OutputStream stderr = forwardTo(false);

    private OutputStream forwardTo(boolean toOut) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                (toOut ? out : err).write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                (toOut ? out : err).write(b, off, len);
            }
        };
    }

    void attach(byte[] input, OutputStream callOut, OutputStream callErr) {
        in = new ByteArrayInputStream(input);
        out = callOut;
        err = callErr;
    }

    void detach() {
        in = InputStream.nullInputStream();
        out = OutputStream.nullOutputStream();
        err = OutputStream.nullOutputStream();
    }
}
