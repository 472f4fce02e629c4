package dev.pysandbox.execution;

/**
 * What text costs inside a JSON string: its UTF-8 bytes, with JSON's escapes. A quote or backslash takes 2
 * bytes, a control character 2 ({@code \n}) or 6 ({@code \u0001}), so a budget counted in characters would let
 * guest text grow six-fold on its way to the client; budgets that must hold on the wire count this instead.
 */
public final class JsonSize {
    private JsonSize() {
    }

    /** Bytes one UTF-16 unit takes in a JSON string (each half of a surrogate pair counts 2: 4 for the pair). */
    public static int of(char c) {
        if (c == '"' || c == '\\') {
            return 2;
        }
        if (c < 0x20) {
            return c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f' ? 2 : 6;
        }
        if (c < 0x80) {
            return 1;
        }
        if (c < 0x800 || Character.isSurrogate(c)) {
            return 2;
        }
        return 3;
    }

    /** Bytes one byte of UTF-8 text takes in a JSON string: bytes of multi-byte characters stand as they are. */
    public static int of(byte b) {
        return b < 0 ? 1 : of((char) b);
    }

    /** Bytes the text takes in a JSON string, without the quotes. */
    public static long of(String text) {
        long size = 0;
        for (int i = 0; i < text.length(); i++) {
            size += of(text.charAt(i));
        }
        return size;
    }

    /** The longest prefix of the text that takes at most {@code budget} bytes, never splitting a surrogate pair. */
    public static int prefixWithin(String text, long budget) {
        long size = 0;
        int end = 0;
        while (end < text.length()) {
            size += of(text.charAt(end));
            if (size > budget) {
                break;
            }
            end++;
        }
        if (end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return end;
    }
}
