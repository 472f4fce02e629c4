package dev.pysandbox.files;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import dev.pysandbox.execution.OutputFile;

/**
 * Files out: what a call's answer says of the files it wrote. A file that is valid UTF-8 without NUL comes
 * back as text, anything else as base64; all files together share one content budget, spent in path order,
 * and a file beyond it comes back with its head (cut at a character boundary) and {@code truncated}.
 */
public final class ReturnedFiles {
    private ReturnedFiles() {
    }

    public static List<OutputFile> from(List<ScratchSpace.Written> written, int budget) {
        List<OutputFile> files = new ArrayList<>();
        long left = budget;
        for (ScratchSpace.Written file : written) {
            byte[] content = file.content();
            int shown = (int) Math.min(content.length, left);
            boolean text = isText(content);
            if (text) {
                shown = characterBoundary(content, shown);
            }
            left -= shown;
            boolean truncated = shown < content.length;
            files.add(text
                    ? new OutputFile(file.path(), content.length, new String(content, 0, shown, StandardCharsets.UTF_8), null, truncated)
                    : new OutputFile(file.path(), content.length, null,
                            Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(content, shown)), truncated));
        }
        return files;
    }

    static boolean isText(byte[] content) {
        for (byte b : content) {
            if (b == 0) {
                return false;
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** The largest length at most {@code limit} that does not split a UTF-8 sequence. */
    private static int characterBoundary(byte[] content, int limit) {
        int end = limit;
        while (end > 0 && end < content.length && (content[end] & 0xC0) == 0x80) {
            end--;
        }
        return end;
    }
}
