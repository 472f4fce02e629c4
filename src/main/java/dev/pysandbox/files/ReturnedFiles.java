package dev.pysandbox.files;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.AnswerBudget.FileListing;
import dev.pysandbox.execution.JsonSize;
import dev.pysandbox.execution.OutputFile;

/**
 * Files out: what a call's answer says of the files it wrote. A file that is valid UTF-8 without NUL comes
 * back as text, anything else as base64. The listing is bounded as {@link AnswerBudget#files} bounds it, counted
 * here on the bytes so that no more is copied than is shown: all files share one content budget, counted as the
 * content stands in the answer's JSON (escaped text, or base64) and spent in path order; a file beyond it comes
 * back with its head (cut at a character boundary) and {@code truncated}; a file whose path no longer fits the
 * listing is left out and counted.
 */
public final class ReturnedFiles {
    private ReturnedFiles() {
    }

    public static FileListing from(List<ScratchSpace.Written> written, int budget) {
        List<OutputFile> files = new ArrayList<>();
        long listing = AnswerBudget.FILE_LISTING_BYTES;
        long left = budget;
        int omitted = 0;
        for (ScratchSpace.Written file : written) {
            long entry = AnswerBudget.FILE_ENTRY_BYTES + JsonSize.of(file.path());
            if (entry > listing) {
                omitted++;
                continue;
            }
            listing -= entry;
            byte[] content = file.content();
            if (isText(content)) {
                int shown = characterBoundary(content, textWithin(content, left));
                left -= jsonSize(content, shown);
                files.add(new OutputFile(file.path(), content.length, new String(content, 0, shown, StandardCharsets.UTF_8),
                        null, shown < content.length));
            } else {
                // Three bytes make four of base64: whole groups, so that what is shown still decodes.
                int shown = (int) Math.min(content.length, left / 4 * 3);
                String base64 = Base64.getEncoder().encodeToString(Arrays.copyOf(content, shown));
                left -= base64.length();
                files.add(new OutputFile(file.path(), content.length, null, base64, shown < content.length));
            }
        }
        return new FileListing(files, omitted);
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

    /** How many bytes of the text fit {@code budget} bytes of JSON. */
    private static int textWithin(byte[] content, long budget) {
        long size = 0;
        for (int i = 0; i < content.length; i++) {
            size += JsonSize.of(content[i]);
            if (size > budget) {
                return i;
            }
        }
        return content.length;
    }

    private static long jsonSize(byte[] content, int length) {
        long size = 0;
        for (int i = 0; i < length; i++) {
            size += JsonSize.of(content[i]);
        }
        return size;
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
