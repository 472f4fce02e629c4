package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.wire.WireCodec;

/** {@code bin/python-sandbox-mcp run}: one snippet through the sandbox, its JSON result on stdout. */
class RunCommandIT {
    @TempDir
    Path temp;

    private record Outcome(int exitCode, Map<String, Object> result) {
    }

    @SuppressWarnings("unchecked")
    private Outcome run(String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(SandboxServer.LAUNCHER.toString(), "run"));
        List<String> own = new ArrayList<>(List.of(args));
        own.add("--workers=1");
        command.addAll(SandboxServer.withSuiteFlags(own));
        Process process = SandboxServer.suiteProcess(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(240, TimeUnit.SECONDS));
        return new Outcome(process.exitValue(), (Map<String, Object>) WireCodec.parseValue(stdout.strip()));
    }

    /** README's `run` examples work as written (an example that reads input() from the code's own stdin did not). */
    @Test
    void theReadmesRunExamplesWorkAsWritten() throws Exception {
        List<String> examples = Files.readAllLines(SandboxServer.PROJECT_ROOT.resolve("README.md")).stream()
                .filter(line -> line.contains("bin/python-sandbox-mcp run ") && !line.contains("path/to/"))
                .filter(line -> line.startsWith("bin/") || line.startsWith("echo "))
                .toList();
        assertTrue(examples.size() >= 3, examples.toString());
        for (String example : examples) {
            Process process = new ProcessBuilder("bash", "-c", example).directory(SandboxServer.PROJECT_ROOT.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(240, TimeUnit.SECONDS), example);
            assertEquals(0, process.exitValue(), example + "\n" + stdout);
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) WireCodec.parseValue(stdout.strip());
            assertEquals("success", result.get("status"), example + "\n" + stdout);
        }
    }

    @Test
    void inlineCodePrintsItsJsonResult() throws Exception {
        Outcome outcome = run("", "-c", "print('hi')\nresult = 6 * 7");
        assertEquals(0, outcome.exitCode());
        assertEquals("hi\n", outcome.result().get("stdout"));
        assertEquals(42, outcome.result().get("result"));
    }

    @Test
    void fileAndStandardInputWork() throws Exception {
        Path script = Files.writeString(temp.resolve("job.py"), "raise ValueError('bad input')\n");
        Outcome fromFile = run("", script.toString());
        assertEquals(1, fromFile.exitCode());
        assertEquals("ValueError: bad input", fromFile.result().get("error_message"));
        assertTrue(((String) fromFile.result().get("stderr")).contains("File \"job.py\", line 1"));

        Outcome fromStdin = run("print(sum(range(10)))\n", "-");
        assertEquals("45\n", fromStdin.result().get("stdout"));
    }
}
