package dev.pysandbox.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.pysandbox.wire.BoundedLineReader.Eof;
import dev.pysandbox.wire.BoundedLineReader.Line;
import dev.pysandbox.wire.BoundedLineReader.Oversized;
import dev.pysandbox.wire.BoundedLineReader.Result;

@Timeout(10)
class BoundedLineReaderTest {

    private static List<Result> readAll(InputStream in, int max) throws IOException {
        BoundedLineReader reader = new BoundedLineReader(in, max);
        List<Result> results = new ArrayList<>();
        Result r;
        do {
            r = reader.next();
            results.add(r);
        } while (!(r instanceof Eof));
        return results;
    }

    private static List<Result> readAll(String text, int max) throws IOException {
        return readAll(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), max);
    }

    /** Hands out at most one byte per read, to exercise every chunk boundary. */
    private static InputStream trickle(byte[] bytes) {
        return new InputStream() {
            int pos;

            @Override
            public int read() {
                return pos < bytes.length ? bytes[pos++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= bytes.length) {
                    return -1;
                }
                b[off] = bytes[pos++];
                return 1;
            }
        };
    }

    @Test
    void splitsOnNewlineAndStripsCarriageReturn() throws IOException {
        assertEquals(List.of(new Line("a"), new Line("bc"), new Line(""), new Line("d"), new Eof()),
                readAll("a\nbc\r\n\nd\n", 100));
    }

    @Test
    void returnsUnterminatedLastLineThenEof() throws IOException {
        assertEquals(List.of(new Line("x"), new Line("tail"), new Eof()), readAll("x\ntail", 100));
    }

    @Test
    void emptyStreamIsEof() throws IOException {
        assertEquals(List.of(new Eof()), readAll("", 100));
    }

    @Test
    void eofIsSticky() throws IOException {
        BoundedLineReader reader = new BoundedLineReader(new ByteArrayInputStream(new byte[0]), 10);
        assertEquals(new Eof(), reader.next());
        assertEquals(new Eof(), reader.next());
    }

    @Test
    void decodesMultiByteUtf8SplitAcrossReads() throws IOException {
        String text = "h\u00e9llo \u4e16\u754c \ud83d\ude00";
        byte[] bytes = (text + "\nnext\n").getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of(new Line(text), new Line("next"), new Eof()), readAll(trickle(bytes), 100));
    }

    @Test
    void lineOfExactlyTheLimitIsAcceptedOneMoreIsNot() throws IOException {
        String exact = "x".repeat(8);
        assertEquals(List.of(new Line(exact), new Oversized(8), new Line("ok"), new Eof()),
                readAll(exact + "\n" + exact + "y\nok\n", 8));
    }

    @Test
    void carriageReturnDoesNotCountTowardsTheLimit() throws IOException {
        String exact = "x".repeat(8);
        assertEquals(List.of(new Line(exact), new Eof()), readAll(exact + "\r\n", 8));
        assertEquals(List.of(new Oversized(8), new Eof()), readAll(exact + "\r\r\n", 8));
    }

    @Test
    void skipsHugeLineWithoutBufferingItAndContinues() throws IOException {
        int max = 1024;
        long hugeLength = 50L * 1024 * 1024;
        // A generated stream, so the test itself never holds the 50 MB line either.
        InputStream in = new InputStream() {
            long pos;
            final byte[] tail = "\n{\"after\":true}\n".getBytes(StandardCharsets.UTF_8);

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos < hugeLength) {
                    int n = (int) Math.min(len, hugeLength - pos);
                    java.util.Arrays.fill(b, off, off + n, (byte) 'a');
                    pos += n;
                    return n;
                }
                int t = (int) (pos - hugeLength);
                if (t >= tail.length) {
                    return -1;
                }
                int n = Math.min(len, tail.length - t);
                System.arraycopy(tail, t, b, off, n);
                pos += n;
                return n;
            }
        };
        assertEquals(List.of(new Oversized(max), new Line("{\"after\":true}"), new Eof()), readAll(in, max));
    }

    @Test
    void oversizedUnterminatedLastLineIsReportedAsOversized() throws IOException {
        assertEquals(List.of(new Line("a"), new Oversized(4), new Eof()), readAll("a\n123456789", 4));
    }

    @Test
    void manyLinesAcrossChunkBoundaries() throws IOException {
        StringBuilder sb = new StringBuilder();
        List<Result> expected = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            String line = "line-" + i + "-" + "z".repeat(i % 37);
            sb.append(line).append(i % 2 == 0 ? "\n" : "\r\n");
            expected.add(new Line(line));
        }
        expected.add(new Eof());
        assertEquals(expected, readAll(sb.toString(), 100));
    }

    @Test
    void rejectsNonPositiveLimit() {
        assertThrows(IllegalArgumentException.class,
                () -> new BoundedLineReader(new ByteArrayInputStream(new byte[0]), 0));
    }

    @Test
    void readErrorsPropagate() {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("boom");
            }
        };
        IOException e = assertThrows(IOException.class, () -> new BoundedLineReader(failing, 10).next());
        assertTrue(e.getMessage().contains("boom"));
    }
}
