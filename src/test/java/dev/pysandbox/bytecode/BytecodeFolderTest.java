package dev.pysandbox.bytecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BytecodeFolderTest {
    private static final String GRAALPY = BytecodeFolder.version();

    @TempDir
    Path folder;

    @Test
    void aFolderIsCompiledOnceForEachGraalPy() throws IOException {
        Files.writeString(folder.resolve("greeting.py"), "WORD = 'hello'\n");
        Files.createDirectories(folder.resolve("pkg"));
        Files.writeString(folder.resolve("pkg/__init__.py"), "from greeting import WORD\n");

        BytecodeFolder.Outcome first = BytecodeFolder.ensure(folder, GRAALPY);
        assertEquals(2, assertInstanceOf(BytecodeFolder.Outcome.Compiled.class, first).files());
        assertTrue(Files.list(folder.resolve("__pycache__")).anyMatch(f -> f.getFileName().toString().startsWith("greeting.")));
        assertInstanceOf(BytecodeFolder.Outcome.AlreadyCompiled.class, BytecodeFolder.ensure(folder, GRAALPY));
        assertInstanceOf(BytecodeFolder.Outcome.Compiled.class, BytecodeFolder.ensure(folder, GRAALPY + " (another)"));
    }

    @Test
    void threadsOfOneJvmTakeTurnsAndOnlyTheFirstCompiles() throws Exception {
        Files.writeString(folder.resolve("shared.py"), "VALUE = 42\n");
        List<Callable<BytecodeFolder.Outcome>> both = List.of(
                () -> BytecodeFolder.ensure(folder, GRAALPY), () -> BytecodeFolder.ensure(folder, GRAALPY));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<BytecodeFolder.Outcome> outcomes = new ArrayList<>();
            for (Future<BytecodeFolder.Outcome> outcome : threads.invokeAll(both)) {
                outcomes.add(outcome.get());
            }
            assertEquals(1, outcomes.stream().filter(BytecodeFolder.Outcome.Compiled.class::isInstance).count(), outcomes::toString);
            assertEquals(1, outcomes.stream().filter(BytecodeFolder.Outcome.AlreadyCompiled.class::isInstance).count(), outcomes::toString);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void compilingAChangedFolderDropsTheBytecodeOfModulesThatWent() throws IOException {
        Files.writeString(folder.resolve("kept.py"), "X = 1\n");
        Files.writeString(folder.resolve("removed.py"), "Y = 2\n");
        assertInstanceOf(BytecodeFolder.Outcome.Compiled.class, BytecodeFolder.ensure(folder, GRAALPY));
        Files.delete(folder.resolve("removed.py"));

        BytecodeFolder.Outcome again = BytecodeFolder.compile(folder, GRAALPY);
        assertEquals(1, assertInstanceOf(BytecodeFolder.Outcome.Compiled.class, again).files());
        assertFalse(Files.list(folder.resolve("__pycache__")).anyMatch(f -> f.getFileName().toString().startsWith("removed.")));
    }

    @Test
    void aModuleThatDoesNotCompileIsReportedAndTheFolderIsNotStamped() throws IOException {
        Files.writeString(folder.resolve("broken.py"), "def (:\n");
        assertInstanceOf(BytecodeFolder.Outcome.Failed.class, BytecodeFolder.ensure(folder, GRAALPY));
        assertFalse(Files.exists(folder.resolve(BytecodeFolder.STAMP)));
    }

    @Test
    void aMissingFolderIsReportedNotCreated() {
        assertInstanceOf(BytecodeFolder.Outcome.Failed.class, BytecodeFolder.ensure(folder.resolve("absent"), GRAALPY));
        assertFalse(Files.exists(folder.resolve("absent")));
    }
}
