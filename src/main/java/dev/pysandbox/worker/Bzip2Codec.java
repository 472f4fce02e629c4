package dev.pysandbox.worker;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import org.graalvm.polyglot.proxy.ProxyObject;

/**
 * The codec of the {@code bz2} module, which GraalPy leaves to the native libbz2 the sandbox cannot load,
 * answered in the worker by Apache Commons Compress (as {@link UnicodeData} answers from ICU's tables). The
 * prelude's {@code bz2_codec.py} builds {@code _bz2}'s BZ2Compressor and BZ2Decompressor on it. It reaches
 * nothing but the bytes handed to it.
 *
 * <p>Bytes cross as Latin-1 strings, one character a byte: the context has no host access to pass arrays
 * through, and a string crosses whole. Two calls:
 * <ul>
 *   <li>{@code codec('compressor', level)}: an object whose {@code compress(text)} and {@code flush()} answer
 *       the compressed bytes produced so far;</li>
 *   <li>{@code codec('decompressor')}: an object whose {@code decompress(text, max_length)} takes more input
 *       and answers {@code [status, output, unused]}: status {@code end} (the stream ended; unused is the
 *       input after it), {@code more} (max_length bytes given, more are ready), {@code input} (it needs more
 *       input) or {@code invalid}.</li>
 * </ul>
 */
final class Bzip2Codec implements ProxyExecutable {
    @Override
    public Object execute(Value... arguments) {
        String what = arguments[0].asString();
        return switch (what) {
            case "compressor" -> compressor(arguments[1].asInt());
            case "decompressor" -> new Decompressor().toGuest();
            default -> throw new IllegalArgumentException("no bz2 codec function " + what);
        };
    }

    private static byte[] bytes(Value latin1) {
        return latin1.asString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static ProxyObject compressor(int level) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BZip2CompressorOutputStream stream;
        try {
            stream = new BZip2CompressorOutputStream(sink, level);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ProxyObject.fromMap(Map.of(
                "compress", (ProxyExecutable) arguments -> {
                    try {
                        stream.write(bytes(arguments[0]));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return drain(sink);
                },
                "flush", (ProxyExecutable) arguments -> {
                    try {
                        stream.finish();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return drain(sink);
                }));
    }

    private static String drain(ByteArrayOutputStream sink) {
        String produced = sink.toString(StandardCharsets.ISO_8859_1);
        sink.reset();
        return produced;
    }

    /**
     * One stream's decompressor. Commons Compress decodes from a stream it pulls, and libbz2 from input pushed
     * to it; so input is kept until it holds a stream's end (the 48-bit end mark at any bit, then its 32-bit
     * checksum), and only then decoded, from the start. The stream is over at the same input as libbz2 says,
     * with the same bytes left unused, and the whole output is the same; only a stream of several 900 KB
     * blocks gives its output later than libbz2 would, at its end instead of block by block.
     */
    private static final class Decompressor {
        private static final long END_MARK = 0x177245385090L;
        private static final long MARK_BITS = (1L << 48) - 1;
        /** What follows a stream's 4-byte header: a block (the digits of pi), or the end mark of an empty stream. */
        private static final long BLOCK_MARK = 0x314159265359L;

        private final ByteArrayOutputStream input = new ByteArrayOutputStream();
        /** The input's first bytes: enough to tell whether it can begin a stream. */
        private final byte[] head = new byte[10];
        private int headLength;
        /** The last 64 bits of input, and how many bits of input the scan for the end mark has seen. */
        private long window;
        private long bitsSeen;
        /** Where the end marks found start, in bits from the start of input; one found to lie in data is dropped. */
        private final ArrayDeque<Long> endMarks = new ArrayDeque<>();
        private BZip2CompressorInputStream decoder;
        /** Output bytes given out so far: a decoder made again after a false end skips them. */
        private long given;

        ProxyObject toGuest() {
            return ProxyObject.fromMap(Map.of("decompress",
                    (ProxyExecutable) arguments -> decompress(bytes(arguments[0]), arguments[1].asLong())));
        }

        private Object decompress(byte[] more, long maxLength) {
            if (more.length > 0) {
                input.write(more, 0, more.length);
                int taken = Math.min(more.length, head.length - headLength);
                System.arraycopy(more, 0, head, headLength, taken);
                headLength += taken;
                scan(more);
                decoder = null; // input came after a decode began: that end was not the stream's; begin again
            }
            if (!startsLikeAStream()) {
                return answer("invalid", new ByteArrayOutputStream(), ""); // as libbz2 says at once
            }
            int wanted = maxLength < 0 ? Integer.MAX_VALUE - 8 : (int) Math.min(maxLength, Integer.MAX_VALUE - 8);
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(wanted, 1 << 16));
            byte[] buffer = new byte[1 << 16];
            while (true) {
                try {
                    if (decoder == null) {
                        if (endMarks.isEmpty() || bitsSeen < endMarks.peekFirst() + 48 + 32) {
                            return answer("input", out, "");
                        }
                        decoder = new BZip2CompressorInputStream(new ByteArrayInputStream(input.toByteArray()), false);
                        decoder.skipNBytes(given);
                    }
                    while (out.size() < wanted) {
                        int read = decoder.read(buffer, 0, Math.min(buffer.length, wanted - out.size()));
                        if (read < 0) {
                            // The decoder reads whole bytes and stops after the checksum: what it read is the stream.
                            byte[] all = input.toByteArray();
                            int used = (int) Math.min(decoder.getCompressedCount(), all.length);
                            return answer("end", out, new String(all, used, all.length - used, StandardCharsets.ISO_8859_1));
                        }
                        out.write(buffer, 0, read);
                        given += read;
                    }
                    return answer("more", out, "");
                } catch (IOException | RuntimeException e) {
                    if (!endsEarly(e)) {
                        return answer("invalid", out, "");
                    }
                    // A false end: that end mark lay inside the data. Try the next one, if input holds it.
                    endMarks.pollFirst();
                    decoder = null;
                }
            }
        }

        /** Whether the input so far can begin a stream: "BZh", a block size 1 to 9, then a block or the end. */
        private boolean startsLikeAStream() {
            byte[] expected = {'B', 'Z', 'h'};
            for (int i = 0; i < Math.min(3, headLength); i++) {
                if (head[i] != expected[i]) {
                    return false;
                }
            }
            if (headLength > 3 && (head[3] < '1' || head[3] > '9')) {
                return false;
            }
            if (headLength < head.length) {
                return true;
            }
            long mark = 0;
            for (int i = 4; i < head.length; i++) {
                mark = mark << 8 | (head[i] & 0xFF);
            }
            return mark == BLOCK_MARK || mark == END_MARK;
        }

        /** Looks for the end mark at every bit of the new input. */
        private void scan(byte[] more) {
            for (byte b : more) {
                for (int bit = 7; bit >= 0; bit--) {
                    window = window << 1 | (b >> bit & 1);
                    bitsSeen++;
                    if (bitsSeen >= 48 && (window & MARK_BITS) == END_MARK) {
                        endMarks.addLast(bitsSeen - 48);
                    }
                }
            }
        }

        /** Whether the decoder failed for want of input, which is what a false end looks like to it. */
        private static boolean endsEarly(Exception e) {
            String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            return e instanceof EOFException || message.contains("truncated") || message.contains("end of stream");
        }

        private static Object answer(String status, ByteArrayOutputStream output, String unused) {
            return ProxyArray.fromArray(status, output.toString(StandardCharsets.ISO_8859_1), unused);
        }
    }
}
