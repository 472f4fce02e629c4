package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/** run_python over stdio: its text answers and its path rules, against a run root prepared by SharedServer. */
class RunPythonIT {
    private final SandboxServer server = SharedServer.get();

    private String run(Map<String, Object> arguments) {
        return SandboxServer.text(server.call("run_python", arguments));
    }

    @Test
    void codeAnswersStdoutThenStderr() {
        CallToolResult result = server.call("run_python", Map.of("code", "import sys\nprint('out')\nprint('err', file=sys.stderr)"));
        assertEquals("Stdout:\nout\n\nStderr:\nerr\n", SandboxServer.text(result));
        assertFalse(Boolean.TRUE.equals(result.isError()));
        Map<?, ?> structured = (Map<?, ?>) result.structuredContent();
        assertEquals("success", structured.get("status"));
        assertEquals("out\n", structured.get("stdout"));
    }

    @Test
    void neitherCodeNorScriptIsAnError() {
        CallToolResult result = server.call("run_python", Map.of());
        assertEquals("Error: provide either code or scriptPath.", SandboxServer.text(result));
        assertTrue(result.isError());
        assertEquals("setup_error", ((Map<?, ?>) result.structuredContent()).get("status"));
    }

    @Test
    void scriptPathRunsTheFile() {
        assertEquals("Stdout:\nhello from a script\n\nStderr:\nwarned\n", run(Map.of("scriptPath", "scripts/hello.py")));
    }

    @Test
    void scriptPathWinsOverCode() {
        String answer = run(Map.of("scriptPath", "scripts/hello.py", "code", "print('the code')"));
        assertTrue(answer.contains("hello from a script") && !answer.contains("the code"), answer);
    }

    @Test
    void workingDirectoryResolvesARelativeScript() {
        assertTrue(run(Map.of("workingDirectory", "scripts", "scriptPath", "hello.py")).contains("hello from a script"));
    }

    @Test
    void dotDotOutOfTheRootIsRefused() {
        assertEquals("Error: path must be under the run directory.",
                run(Map.of("scriptPath", "../it-outside-root/secret.py")));
        assertEquals("Error: path must be under the run directory.",
                run(Map.of("workingDirectory", "scripts/../..", "scriptPath", "it-outside-root/secret.py")));
    }

    @Test
    void symlinkOutOfTheRootIsRefused() {
        String viaFileLink = run(Map.of("scriptPath", "scripts/escape.py"));
        assertEquals("Error: path must be under the run directory.", viaFileLink);
        String viaDirLink = run(Map.of("scriptPath", "outside-dir/secret.py"));
        assertEquals("Error: path must be under the run directory.", viaDirLink);
        assertFalse((viaFileLink + viaDirLink).contains("SECRET"));
    }

    @Test
    void missingOrNonPythonFilesAreRefused() {
        assertEquals("Error: script file not found or not a .py file.", run(Map.of("scriptPath", "scripts/nope.py")));
        assertEquals("Error: script file not found or not a .py file.", run(Map.of("scriptPath", "scripts/notes.txt")));
        assertEquals("Error: script file not found or not a .py file.", run(Map.of("scriptPath", "scripts")));
    }

    @Test
    void exceptionAnswersErrorWithTheTraceback() {
        String answer = run(Map.of("scriptPath", "scripts/fails.py"));
        assertTrue(answer.startsWith("Error: KeyError: 'missing'\n"), answer);
        assertTrue(answer.contains("Traceback (most recent call last):"), answer);
        assertTrue(answer.contains("File \"scripts/fails.py\", line 2, in broken"), "relative name, no host path: " + answer);
        assertFalse(answer.contains(SharedServer.RUN_ROOT.toString()), answer);
    }

    @Test
    void schemaRejectsWrongTypes() {
        CallToolResult result = server.call("run_python", Map.of("code", 42));
        assertTrue(result.isError());
        assertTrue(SandboxServer.text(result).contains("code"));
    }

    /**
     * Attack (issue 22, finding 7): a server started without run-python.root, as desktop hosts start servers
     * (often in {@code /}), is asked to run a .py file of its host by relative and by absolute path, or to use a
     * host folder. It refuses and names the setting; inline code still runs. Its working directory is the
     * project, where the planted script lies.
     */
    @Test
    void attackScriptPathWithoutARunRootIsRefused() throws IOException {
        Path planted = SandboxServer.PROJECT_ROOT.resolve("target/it-host-files/settings.py");
        Files.createDirectories(planted.getParent());
        Files.writeString(planted, "print('HOST SCRIPT RAN')\n");
        String relative = SandboxServer.PROJECT_ROOT.relativize(planted).toString();
        try (SandboxServer noRoot = SandboxServer.start("--workers=1")) {
            for (Map<String, Object> arguments : List.<Map<String, Object>>of(Map.of("scriptPath", relative),
                    Map.of("scriptPath", planted.toString()), Map.of("scriptPath", "settings.py", "workingDirectory",
                    planted.getParent().toString()), Map.of("code", "print('here')", "workingDirectory", "target"))) {
                CallToolResult refused = noRoot.call("run_python", arguments);
                String text = SandboxServer.text(refused);
                assertTrue(text.startsWith("Error: scriptPath and workingDirectory name files of the server's host"),
                        arguments + " -> " + text);
                assertTrue(text.contains("--run-python.root="), text);
                assertTrue(refused.isError());
                assertEquals("setup_error", ((Map<?, ?>) refused.structuredContent()).get("status"));
            }
            assertEquals("Stdout:\ninline\n\nStderr:\n",
                    SandboxServer.text(noRoot.call("run_python", Map.of("code", "print('inline')"))));
            Tool tool = noRoot.client.listTools().tools().stream().filter(t -> t.name().equals("run_python"))
                    .findFirst().orElseThrow();
            assertTrue(tool.description().contains("Give code: this server reads no script files"), tool.description());
        }
    }
}
