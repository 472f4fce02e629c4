package dev.pysandbox.worker.javascript;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.SandboxPolicy;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.pysandbox.wire.WireCodec;


/**
 * The guest console (console.js) prints what Node prints. Each case in console-cases.recorded.json was run under
 * real Node by record-console-cases.js; here the same code runs on GraalJS with the guest console, and stdout and
 * stderr must be the same bytes, or, for a case whose output varies from run to run (timings, stack frames), match
 * the case's pattern.
 */
class NodeConsoleFormatTest {
    private static final String CONSOLE_SCRIPT = "/dev/pysandbox/worker/javascript/console.js";
    private static final String RECORDED_CASES = "/javascript/console-cases.recorded.json";

    /**
     * Installs the guest console with writers that collect the text in the guest, so no host object is involved,
     * and answers a function that returns what was written so far as [stdout, stderr].
     */
    private static final String INSTALL_COLLECTING_CONSOLE = """
            (function (api) {
              const stdout = [];
              const stderr = [];
              globalThis.console = api.makeConsole((text) => { stdout.push(text); }, (text) => { stderr.push(text); });
              return () => [stdout.join(''), stderr.join('')];
            })
            """;

    /** One case as Node ran it; a pattern, when present, replaces exact comparison for its stream. */
        record RecordedCase(String name, String code, String stdout, String stderr, String stdoutPattern,
            String stderrPattern) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** What the guest console wrote while a case ran. */
    private record Output(String stdout, String stderr) {
    }

    private static Engine engine;
    private static Source consoleScript;
    private static Source installCollectingConsole;

    @BeforeAll
    static void loadConsoleScript() throws IOException {
        engine = Engine.newBuilder("js").sandbox(SandboxPolicy.CONSTRAINED).out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream()).option("engine.WarnInterpreterOnly", "false").build();
        try (Reader script = resource(CONSOLE_SCRIPT)) {
            consoleScript = Source.newBuilder("js", script, "console.js").build();
        }
        installCollectingConsole = Source.create("js", INSTALL_COLLECTING_CONSOLE);
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    static List<RecordedCase> recordedCases() throws IOException {
        try (InputStream json = NodeConsoleFormatTest.class.getResourceAsStream(RECORDED_CASES)) {
            assertNotNull(json, RECORDED_CASES + " is on the test classpath");
            List<RecordedCase> cases = new java.util.ArrayList<>();
            for (Object entry : (List<?>) WireCodec.parseValue(new String(json.readAllBytes(), StandardCharsets.UTF_8))) {
                Map<?, ?> fields = (Map<?, ?>) entry;
                cases.add(new RecordedCase((String) fields.get("name"), (String) fields.get("code"),
                        (String) fields.get("stdout"), (String) fields.get("stderr"),
                        (String) fields.get("stdoutPattern"), (String) fields.get("stderrPattern")));
            }
            return cases;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordedCases")
    void consoleWritesWhatNodeWritesFor(RecordedCase recorded) {
        Output output = runOnGraalJs(recorded.code());
        assertStream("stdout", recorded.stdout(), recorded.stdoutPattern(), output.stdout());
        assertStream("stderr", recorded.stderr(), recorded.stderrPattern(), output.stderr());
    }

    private static void assertStream(String stream, String nodeWrote, String pattern, String guestWrote) {
        if (pattern == null) {
            assertEquals(nodeWrote, guestWrote, stream);
        } else {
            assertTrue(Pattern.compile(pattern).matcher(guestWrote).find(),
                    () -> stream + " matches " + pattern + ", but was:\n" + guestWrote);
        }
    }

    /** Runs code in a fresh sandboxed GraalJS context whose console is the guest console. */
    private static Output runOnGraalJs(String code) {
        ByteArrayOutputStream engineOutput = new ByteArrayOutputStream();
        try (Context context = Context.newBuilder("js").engine(engine).sandbox(SandboxPolicy.CONSTRAINED)
                .out(engineOutput).err(engineOutput)
                .allowHostAccess(HostAccess.newBuilder().allowMutableTargetMappings().build())
                .option("js.ecmascript-version", "2024").build()) {
            Value api = context.eval(consoleScript);
            Value written = context.eval(installCollectingConsole).execute(api);
            context.eval(Source.create("js", code));
            Value streams = written.execute();
            assertEquals("", engineOutput.toString(StandardCharsets.UTF_8), "nothing bypasses the guest console");
            return new Output(streams.getArrayElement(0).asString(), streams.getArrayElement(1).asString());
        }
    }

    private static Reader resource(String path) {
        InputStream stream = NodeConsoleFormatTest.class.getResourceAsStream(path);
        assertNotNull(stream, path + " is on the classpath");
        return new InputStreamReader(stream, StandardCharsets.UTF_8);
    }
}
