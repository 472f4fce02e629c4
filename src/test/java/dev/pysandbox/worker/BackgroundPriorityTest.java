package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class BackgroundPriorityTest {
    @Test
    void theCallingThreadAloneIsLowered() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int mine = niceOfThisThread();
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicReference<Integer> lowered = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            failure.set(BackgroundPriority.lowerCurrentThread());
            lowered.set(niceOfThisThread());
        });
        thread.start();
        thread.join();
        assertNull(failure.get());
        assertEquals(19, lowered.get());
        assertEquals(mine, niceOfThisThread(), "another thread of the same process keeps its priority");
    }

    /** Field 19 of /proc/thread-self/stat, counted after the command name's closing parenthesis. */
    private static int niceOfThisThread() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
