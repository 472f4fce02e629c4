package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every snippet of the agent corpus (bench/agent-corpus, the code bench/agent-workload times) runs through
 * the real server with the default profile and prints exactly what CPython printed for it. The expected
 * output was recorded from CPython and is checked in beside each snippet, so this test needs no python3.
 */
class AgentCorpusIT {
    static final Path CORPUS = SandboxServer.PROJECT_ROOT.resolve("bench/agent-corpus");

    private final SandboxServer server = SharedServer.get();

    static List<Path> snippets() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
            List<Path> snippets = files.filter(f -> f.toString().endsWith(".py")).sorted().toList();
            assertTrue(snippets.size() >= 20, "the corpus has at least 20 snippets: " + snippets);
            return snippets;
        }
    }

    @ParameterizedTest
    @MethodSource("snippets")
    void printsWhatCPythonPrinted(Path snippet) throws IOException {
        String expected = Files.readString(Path.of(snippet.toString().replaceAll("\\.py$", ".out")));
        // Generous: a snippet's first run in a fresh context can take seconds on a loaded two-core machine.
        Map<String, Object> result = server.execute(Map.of("language", "python", "timeout", 180,
                "code", Files.readString(snippet)));
        assertEquals("success", result.get("status"), result::toString);
        assertEquals(expected, result.get("stdout"));
        assertEquals("", result.get("stderr"));
    }
}
