package dev.pysandbox.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.mcp.ScriptLocator.Refusal;

class ScriptLocatorTest {
    @TempDir
    Path temp;
    Path root;
    ScriptLocator locator;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(temp.resolve("root"));
        Files.createDirectories(root.resolve("pkg"));
        Files.writeString(root.resolve("pkg/job.py"), "print(1)");
        Files.writeString(root.resolve("pkg/data.txt"), "x");
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("evil.py"), "print('evil')");
        Files.createSymbolicLink(root.resolve("pkg/link.py"), outside.resolve("evil.py"));
        Files.createSymbolicLink(root.resolve("outdir"), outside);
        Files.createSymbolicLink(root.resolve("pkg/inside-link.py"), root.resolve("pkg/job.py"));
        locator = new ScriptLocator(root);
    }

    private String refusal(String script, String workingDirectory) {
        return assertThrows(Refusal.class, () -> locator.locate(script, workingDirectory)).getMessage();
    }

    @Test
    void scriptUnderTheRootIsFoundWithARelativeDisplayName() throws Refusal {
        assertEquals("pkg/job.py", locator.locate("pkg/job.py", null).displayName());
        assertEquals("pkg/job.py", locator.locate("job.py", "pkg").displayName());
        assertEquals("pkg/job.py", locator.locate("./pkg/../pkg/job.py", null).displayName());
    }

    @Test
    void dotDotEscapesAreRefused() {
        assertEquals(ScriptLocator.OUTSIDE_ROOT, refusal("../outside/evil.py", null));
        assertEquals(ScriptLocator.OUTSIDE_ROOT, refusal("evil.py", "../outside"));
        assertEquals(ScriptLocator.OUTSIDE_ROOT, refusal(temp.resolve("outside/evil.py").toString(), null));
    }

    @Test
    void symlinksLeavingTheRootAreRefusedButLinksInsideAreFine() throws Refusal {
        assertEquals(ScriptLocator.OUTSIDE_ROOT, refusal("pkg/link.py", null));
        assertEquals(ScriptLocator.OUTSIDE_ROOT, refusal("outdir/evil.py", null));
        assertEquals(ScriptLocator.OUTSIDE_ROOT, refusal("evil.py", "outdir"));
        assertEquals("pkg/job.py", locator.locate("pkg/inside-link.py", null).displayName());
    }

    @Test
    void missingDirectoriesAndNonPythonFilesAreNotScripts() {
        assertEquals(ScriptLocator.NOT_A_SCRIPT, refusal("pkg/missing.py", null));
        assertEquals(ScriptLocator.NOT_A_SCRIPT, refusal("pkg/data.txt", null));
        assertEquals(ScriptLocator.NOT_A_SCRIPT, refusal("pkg", null));
        assertEquals(ScriptLocator.NOT_A_DIRECTORY, refusal("job.py", "nowhere"));
        assertEquals(ScriptLocator.NOT_A_SCRIPT, refusal("pkg/job\0.py", null));
        assertEquals(ScriptLocator.NOT_A_DIRECTORY, refusal("job.py", "pk\0g"));
    }
}
