package dev.pysandbox.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
