package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Code that fails on purpose, in every way we know: each gets the right status and message, and the next
 * call on the same server succeeds. How fast each is answered is printed (and measured in
 * bench/timeout-latency), not asserted: this machine is shared.
 */
class FaultSuiteIT {
    /** For the faults whose point is the timeout. */
    private static final int SHORT = 3;
    /** For the rest: long enough that a loaded machine never turns them into timeouts. */
    private static final int LONG = 60;
    private static SandboxServer server;

    @BeforeAll
    static void start() {
        server = SandboxServer.start("--workers=2", "--imports.allow=os,signal", SandboxServer.PRELOAD_AS_SHIPPED);
        server.python("pass"); // a warm worker, so the first fault's time is its own
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Stream<Arguments> faults() {
        return Stream.of(
                Arguments.of(SHORT, "infinite loop", "while True:\n    pass", "timeout", "timed out"),
                Arguments.of(SHORT, "sleep past the timeout", "import time\ntime.sleep(60)", "timeout", "timed out"),
                Arguments.of(LONG, "memory bomb: list growth", "x = []\nwhile True:\n    x.append(' ' * 10**6)", "execution_error", "Memory limit reached"),
                Arguments.of(LONG, "memory bomb: bytearray(10**11)", "b = bytearray(10**11)", "execution_error", "Error"),
                Arguments.of(SHORT, "memory bomb: 10**10**8", "x = 10**10**8", "timeout", "timed out"),
                Arguments.of(LONG, "deep recursion", "def f(n):\n    return f(n + 1)\nf(0)", "execution_error", "RecursionError"),
                Arguments.of(LONG, "stdout flood", "while True:\n    print('x' * 1000)", "execution_error", "Output limit exceeded"),
                Arguments.of(LONG, "stderr flood", "import sys\nwhile True:\n    sys.stderr.write('e' * 1000)", "execution_error", "Output limit exceeded"),
                Arguments.of(LONG, "os._exit", "import os\nos._exit(7)", "execution_error", "status 7"),
                Arguments.of(LONG, "sys.exit", "import sys\nsys.exit(5)", "execution_error", "status 5"),
                Arguments.of(LONG, "self-signal SIGKILL", "import signal\nsignal.raise_signal(signal.SIGKILL)", "execution_error", "not available"),
                Arguments.of(LONG, "self-signal SIGTERM", "import signal\nsignal.raise_signal(signal.SIGTERM)", "execution_error", "not available"),
                Arguments.of(LONG, "kill the parent", "import os\nos.kill(os.getppid(), 15)", "execution_error", "Error"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("faults")
    void faultIsAnsweredAndTheNextCallSucceeds(int timeout, String name, String code, String status, String messagePart) {
        long start = System.nanoTime();
        Map<String, Object> result = server.execute(Map.of("language", "python", "code", code, "timeout", timeout));
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("[fault] %s -> %s in %.2f s | %s%n", name, result.get("status"), seconds, result.get("error_message"));
        assertEquals(status, result.get("status"), () -> result.toString());
        assertTrue(String.valueOf(result.get("error_message")).contains(messagePart), () -> result.toString());
        assertEquals("next\n", server.python("print('next')").get("stdout"), "the next call succeeds");
    }
}
