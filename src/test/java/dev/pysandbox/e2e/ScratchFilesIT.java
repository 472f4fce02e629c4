package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

import dev.pysandbox.wire.WireCodec;

/**
 * Scratch files through the real server and the Java SDK client: the working directory and /tmp as private
 * in-memory space, files in and out, the caps, and run_python reading its working directory. Attacks are
 * judged by what reached the host or another call, never by error text alone.
 */
class ScratchFilesIT {
    private static final Path RUN_ROOT = SandboxServer.PROJECT_ROOT.resolve("target/it-scratch-run-root");
    private static SandboxServer server;

    @BeforeAll
    static void start() throws IOException {
        Files.createDirectories(RUN_ROOT.resolve("data"));
        Files.writeString(RUN_ROOT.resolve("data/numbers.csv"), "n\n1\n2\n3\n");
        Files.writeString(RUN_ROOT.resolve("data/report.py"), """
                import csv, os
                rows = list(csv.DictReader(open('numbers.csv')))
                print(os.getcwd(), sum(int(r['n']) for r in rows), sorted(os.listdir('.')))
                for attempt in (lambda: open('new.txt', 'w'), lambda: open('../secret.txt').read()):
                    try:
                        attempt()
                        print('allowed')
                    except OSError as e:
                        print(type(e).__name__)
                open('/tmp/scratch.txt', 'w').write('tmp still works')
                print(open('/tmp/scratch.txt').read())
                """);
        Files.writeString(RUN_ROOT.resolve("secret.txt"), "RUN-ROOT-SECRET");
        server = SandboxServer.start("--workers=2", "--run-python.root=" + RUN_ROOT,
                "--run-python.read-working-directory=true", "--files.max-bytes=1000000", "--files.max-count=20",
                "--files.return-bytes=2000");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> run(Map<String, Object> arguments) {
        Map<String, Object> all = new java.util.HashMap<>(arguments);
        all.put("language", "python");
        return server.execute(all);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> files(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("files");
    }

    @Test
    void filesInAndOutRoundTripTextAndBinary() {
        byte[] binary = {0, 1, 2, (byte) 0xff, (byte) 0xfe};
        CallToolResult answer = server.call("execute_code", Map.of("language", "python", "code", """
                import os
                text = open('in/notes.txt').read()
                data = open('blob.bin', 'rb').read()
                with open('upper.txt', 'w') as f:
                    f.write(text.upper())
                open('reversed.bin', 'wb').write(data[::-1])
                print(os.getcwd(), sorted(os.listdir('.')), len(data))
                """, "files", Map.of("in/notes.txt", "héllo wörld", "blob.bin",
                Map.of("base64", Base64.getEncoder().encodeToString(binary)))));
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) answer.structuredContent();
        assertEquals("success", result.get("status"), () -> WireCodec.encode(result));
        assertEquals("/home/sandbox ['blob.bin', 'in', 'reversed.bin', 'upper.txt'] 5\n", result.get("stdout"));
        // Files placed by the caller are not returned; only what the code wrote.
        assertEquals(List.of(
                Map.of("path", "reversed.bin", "size", 5, "base64", Base64.getEncoder().encodeToString(
                        new byte[] {(byte) 0xfe, (byte) 0xff, 2, 1, 0}), "truncated", false),
                Map.of("path", "upper.txt", "size", 13, "text", "HÉLLO WÖRLD", "truncated", false)), files(result));
        List<EmbeddedResource> resources = answer.content().stream()
                .filter(EmbeddedResource.class::isInstance).map(EmbeddedResource.class::cast).toList();
        assertEquals(2, resources.size(), answer::toString);
        BlobResourceContents blob = (BlobResourceContents) resources.get(0).resource();
        assertEquals("sandbox:///home/sandbox/reversed.bin", blob.uri());
        TextResourceContents text = (TextResourceContents) resources.get(1).resource();
        assertEquals("sandbox:///home/sandbox/upper.txt", text.uri());
        assertEquals("text/plain", text.mimeType());
        assertEquals("HÉLLO WÖRLD", text.text());
    }

    @Test
    void theDescriptionStatesTheFileRules() {
        String description = server.client.listTools().tools().stream().filter(t -> t.name().equals("execute_code"))
                .findFirst().orElseThrow().description();
        assertTrue(description.contains("Files: the working directory /home/sandbox and /tmp are private scratch space"
                + " in memory (at most 1000000 bytes and 20 files;"), description);
        assertTrue(description.contains("`files` places input files there"), description);
    }

    @Test
    void aFileLeftOpenIsReturnedWithItsContent() {
        // CPython closes the file when the object is dropped; GraalPy does not, so the sandbox flushes it.
        Map<String, Object> result = run(Map.of("code", "open('left-open.txt', 'w').write('kept')"));
        assertEquals(List.of(Map.of("path", "left-open.txt", "size", 4, "text", "kept", "truncated", false)),
                files(result));
    }

    @Test
    void attackReadAScratchFileOfAnotherCall() {
        String secret = "CALL-SECRET-" + UUID.randomUUID();
        run(Map.of("code", "open('/tmp/left.txt', 'w').write('" + secret + "')\nopen('mine.txt', 'w').write('x')"));
        Map<String, Object> spy = run(Map.of("code", """
                import os
                print(os.listdir('/tmp'), os.listdir('.'), os.path.exists('/tmp/left.txt'))
                """));
        assertEquals("[] [] False\n", spy.get("stdout"), () -> WireCodec.encode(spy));
        assertFalse(WireCodec.encode(spy).contains(secret));
    }

    @Test
    void attackReadAScratchFileOfAnotherSession() {
        String secret = "SESSION-FILE-" + UUID.randomUUID();
        run(Map.of("session_id", "files-victim", "code", "open('/tmp/s.txt', 'w').write('" + secret + "')"));
        Map<String, Object> spy = run(Map.of("session_id", "files-spy", "code",
                "import os\nprint(os.listdir('/tmp'))"));
        assertEquals("[]\n", spy.get("stdout"), () -> WireCodec.encode(spy));
        Map<String, Object> victim = run(Map.of("session_id", "files-victim", "code", "print(open('/tmp/s.txt').read())"));
        assertEquals(secret + "\n", victim.get("stdout"), "a session keeps its own files");
    }

    @Test
    void aSessionReturnsOnlyTheFilesEachCallWrote() {
        Map<String, Object> first = run(Map.of("session_id", "files-twice", "code", "open('a.txt', 'w').write('1')"));
        assertEquals(List.of("a.txt"), files(first).stream().map(f -> f.get("path")).toList());
        Map<String, Object> second = run(Map.of("session_id", "files-twice", "code",
                "open('b.txt', 'w').write(open('a.txt').read() + '2')"));
        assertEquals(List.of(Map.of("path", "b.txt", "size", 2, "text", "12", "truncated", false)), files(second));
    }

    @Test
    void overTheCapIsAnOSErrorAndTheCallGoesOn() {
        Map<String, Object> result = run(Map.of("code", """
                try:
                    with open('/tmp/big.bin', 'wb') as f:
                        for _ in range(20):
                            f.write(b'x' * 100_000)
                except OSError as e:
                    print(type(e).__name__, e)
                n = 0
                try:
                    while True:
                        open('/tmp/f%d' % n, 'w').close()
                        n += 1
                except OSError as e:
                    print(n, type(e).__name__)
                print('still running')
                """));
        assertEquals("success", result.get("status"), () -> WireCodec.encode(result));
        String stdout = (String) result.get("stdout");
        assertTrue(stdout.startsWith("OSError [Errno 5] No space left in the sandbox's scratch space (more than"
                + " 1000000 bytes in all"), stdout);
        assertTrue(stdout.endsWith("19 OSError\nstill running\n"), stdout);
    }

    @Test
    void returnedContentIsCappedAndMarkedTruncated() {
        Map<String, Object> result = run(Map.of("code", "open('a.txt', 'w').write('a' * 1500)\n"
                + "open('b.txt', 'w').write('b' * 1500)"));
        assertEquals(List.of(Map.of("path", "a.txt", "size", 1500, "text", "a".repeat(1500), "truncated", false),
                Map.of("path", "b.txt", "size", 1500, "text", "b".repeat(500), "truncated", true)), files(result));
    }

    @Test
    void attackFilesArgumentNamesThatClimbOut() {
        for (String name : List.of("../escape.txt", "/etc/passwd", "a/../../b", "./x", "a//b", "")) {
            CallToolResult answer = server.call("execute_code", Map.of("language", "python", "code", "print(1)",
                    "files", Map.of(name, "planted")));
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) answer.structuredContent();
            assertEquals("setup_error", result.get("status"), name);
            assertTrue(answer.isError(), name);
            assertTrue(String.valueOf(result.get("error_message")).startsWith("Argument 'files': file name"), name
                    + ": " + result.get("error_message"));
        }
        assertFalse(Files.exists(SandboxServer.PROJECT_ROOT.resolve("escape.txt")));
    }

    @Test
    void attackFileNamesLongerThanAFileSystemAllowsAreRefused() {
        Map<String, Object> result = run(Map.of("code", """
                import os
                attempts = [lambda: open('x' * 300, 'w'), lambda: os.mkdir('m' * 256),
                            lambda: open('/tmp/' + 'd/' * 2100 + 'f', 'w'), lambda: os.rename('kept.txt', 'y' * 256)]
                attempts += [lambda i=i: open('%d' % i + 'n' * 100_000, 'w') for i in range(20)]
                open('kept.txt', 'w').write('kept')
                refused = 0
                for attempt in attempts:
                    try:
                        attempt()
                    except OSError as e:
                        refused += e.errno == 36  # ENAMETOOLONG (errno is not in the standard profile)
                print(refused, len(attempts), os.listdir('.'))
                """));
        assertEquals("success", result.get("status"), () -> WireCodec.encode(result));
        assertEquals("24 24 ['kept.txt']\n", result.get("stdout"), "refused as on Linux, with ENAMETOOLONG");
        assertEquals(List.of(Map.of("path", "kept.txt", "size", 4, "text", "kept", "truncated", false)), files(result));

        for (String name : List.of("x".repeat(300), "é".repeat(128), "in/" + "z".repeat(256))) {
            CallToolResult answer = server.call("execute_code", Map.of("language", "python", "code", "print(1)",
                    "files", Map.of(name, "planted")));
            @SuppressWarnings("unchecked")
            Map<String, Object> refused = (Map<String, Object>) answer.structuredContent();
            assertEquals("setup_error", refused.get("status"), name);
            String message = String.valueOf(refused.get("error_message"));
            assertTrue(message.startsWith("Argument 'files': file name '") && message.contains("is too long")
                    && message.contains("a name is at most 255 bytes in UTF-8"), message);
            assertTrue(message.length() < 400, "the name is not echoed whole: " + message);
        }
    }

    @Test
    void attackAFileNamedLikeAHostPathStaysInTheSandbox() throws IOException {
        Path target = SandboxServer.PROJECT_ROOT.resolve("target/it-scratch-planted.txt");
        Files.deleteIfExists(target);
        String relative = target.toString().substring(1);
        Map<String, Object> result = run(Map.of("code", "import os\nprint(os.path.isfile('" + relative + "'))\n"
                + "open('" + target + "', 'w').write('x')", "files", Map.of(relative, "x")));
        assertEquals("True\n", result.get("stdout"), "the file lands under the working directory");
        // Refused as a host path, or (where the project lies under /tmp) missing from the guest's own /tmp.
        String error = String.valueOf(result.get("error_message"));
        assertTrue(error.startsWith("PermissionError") || error.startsWith("FileNotFoundError"), error);
        assertFalse(Files.exists(target), "wrote to the host");
    }

    @Test
    void runPythonReadsItsWorkingDirectoryReadOnly() {
        CallToolResult answer = server.call("run_python", Map.of("scriptPath", "report.py", "workingDirectory", "data"));
        String text = SandboxServer.text(answer);
        assertEquals("Stdout:\n/home/sandbox 6 ['numbers.csv', 'report.py']\nPermissionError\nPermissionError\n"
                + "tmp still works\n\nStderr:\n", text);
        assertFalse(text.contains("RUN-ROOT-SECRET"));
        assertFalse(Files.exists(RUN_ROOT.resolve("data/new.txt")));
    }
}
