package dev.pysandbox.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The names {@code files} in may give, and the ones that would climb out of the working directory. */
class FileNameTest {
    @Test
    void plainRelativeNamesLandUnderTheWorkingDirectory() {
        assertEquals(Path.of("/home/sandbox/data.csv"), FileName.inWorkingDirectory("data.csv"));
        assertEquals(Path.of("/home/sandbox/in/deep/x.bin"), FileName.inWorkingDirectory("in/deep/x.bin"));
        assertEquals(Path.of("/home/sandbox/etc/passwd"), FileName.inWorkingDirectory("etc/passwd"));
    }

    @Test
    void attackNamesThatClimbOutOrConfuse() {
        for (String name : List.of("../x", "a/../../x", "/etc/passwd", "./x", "a//b", "a/", "", "..", "a\0b",
                "x".repeat(256), "a/".repeat(600))) {
            assertThrows(IllegalArgumentException.class, () -> FileName.inWorkingDirectory(name), name);
        }
    }

    @Test
    void namesAreBoundedInUtf8BytesLikeALinuxFileSystem() {
        FileName.inWorkingDirectory("x".repeat(255));
        FileName.inWorkingDirectory("é".repeat(127) + "x");
        String longest = ("d".repeat(255) + "/").repeat(15) + "f".repeat(4096 - "/home/sandbox/".length() - 15 * 256);
        assertEquals(4096, FileName.inWorkingDirectory(longest).toString().length(), "a path of 4096 bytes is allowed");
        for (String name : List.of("x".repeat(256), "é".repeat(128), longest + "g", "a/" + "€".repeat(86))) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> FileName.inWorkingDirectory(name), name);
            assertTrue(refused.getMessage().contains("255 bytes") && refused.getMessage().contains("4096 bytes"),
                    refused.getMessage());
        }
    }

    @Test
    void attackAHugeNameIsRefusedWithoutEchoingIt() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> FileName.inWorkingDirectory("n".repeat(100_000)));
        assertTrue(refused.getMessage().length() < 400, refused.getMessage());
    }
}
