package dev.pysandbox.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.OutputFile;

/** How written files come back: text or base64, and one content budget for all of them. */
class ReturnedFilesTest {
    private static ScratchSpace.Written file(String path, byte[] content) {
        return new ScratchSpace.Written(path, content);
    }

    @Test
    void textIsTextAndAnythingElseIsBase64() {
        assertEquals(List.of(new OutputFile("a.txt", 6, "héllo", null, false),
                        new OutputFile("b.bin", 3, null, "/wAB", false),
                        new OutputFile("nul.txt", 2, null, "YQA=", false)),
                ReturnedFiles.from(List.of(file("a.txt", "héllo".getBytes(StandardCharsets.UTF_8)),
                        file("b.bin", new byte[] {(byte) 0xff, 0, 1}), file("nul.txt", new byte[] {'a', 0})), 100).files());
    }

    @Test
    void theBudgetIsSharedAndTextIsCutAtACharacterBoundary() {
        byte[] accented = "ééé".getBytes(StandardCharsets.UTF_8); // 6 bytes
        // 7 bytes: a takes 4; b gets 3, cut to 2 so that no character is split; c gets the byte left, d none.
        assertEquals(List.of(new OutputFile("a", 4, "abcd", null, false), new OutputFile("b", 6, "é", null, true),
                        new OutputFile("c", 1, "z", null, false), new OutputFile("d", 1, "", null, true)),
                ReturnedFiles.from(List.of(file("a", "abcd".getBytes()), file("b", accented), file("c", "z".getBytes()),
                        file("d", "y".getBytes())), 7).files());
    }
}
