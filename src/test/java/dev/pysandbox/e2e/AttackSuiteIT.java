package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.pysandbox.wire.WireCodec;

/**
 * Named escape payloads (those that broke or probed peer sandboxes; SECURITY.md lists their kinds), each in
 * its own test, each judged by what it could reach, never by its error text:
 * <ul>
 *   <li>a canary file holding a secret it must not read,</li>
 *   <li>a file it must not create, and a marker file a process it starts would create,</li>
 *   <li>a loopback listener it must not reach,</li>
 *   <li>an environment variable of the server's it must not see,</li>
 *   <li>the server it must not kill (it must answer the next call), and the stdlib it must not plant code in.</li>
 * </ul>
 * The server runs with imports unrestricted, so every payload meets the real boundary (the interpreter's
 * settings, the worker process, the OS layer) instead of stopping at the import policy.
 */
class AttackSuiteIT {
    private static final Path CANARY_DIR = SandboxServer.PROJECT_ROOT.resolve("target/attack-canary");
    private static final Path SECRET_FILE = CANARY_DIR.resolve("secret.txt");
    private static final Path MUST_NOT_CREATE = CANARY_DIR.resolve("created-by-guest.txt");
    private static final Path PROCESS_MARKER = CANARY_DIR.resolve("process-ran.txt");
    private static final String FILE_SECRET = "FILE-SECRET-" + UUID.randomUUID();
    private static final String ENV_NAME = "PYSANDBOX_ATTACK_SECRET";
    private static final String ENV_SECRET = "ENV-SECRET-" + UUID.randomUUID();
    private static final AtomicInteger connections = new AtomicInteger();

    private static ServerSocket listener;
    private static SandboxServer server;

    @BeforeAll
    static void plantCanaries() throws IOException {
        Files.createDirectories(CANARY_DIR);
        Files.writeString(SECRET_FILE, FILE_SECRET);
        Files.deleteIfExists(MUST_NOT_CREATE);
        Files.deleteIfExists(PROCESS_MARKER);
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket ignored = listener.accept()) {
                    connections.incrementAndGet();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "attack-listener");
        acceptor.setDaemon(true);
        acceptor.start();
        server = SandboxServer.start(Map.of(ENV_NAME, ENV_SECRET), "--workers=2", "--imports.profile=unrestricted",
                SandboxServer.PRELOAD_AS_SHIPPED);
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
        listener.close();
    }

    private static String fill(String code) {
        return code.replace("{SECRET}", SECRET_FILE.toString())
                .replace("{CANARY_DIR}", CANARY_DIR.toString())
                .replace("{CREATE}", MUST_NOT_CREATE.toString())
                .replace("{MARKER}", PROCESS_MARKER.toString())
                .replace("{PORT}", Integer.toString(listener.getLocalPort()))
                .replace("{ENV}", ENV_NAME);
    }

    private static Named<String> attack(String name, String code) {
        return Named.of(name, code);
    }

    static Stream<Named<String>> attacks() {
        return Stream.of(
                // --- file access ---
                attack("read a host file with open()", "print(open('{SECRET}').read())"),
                attack("read with io.open", "import io\nprint(io.open('{SECRET}').read())"),
                attack("read with _io.FileIO", "import _io\nprint(_io.FileIO('{SECRET}').read())"),
                attack("read with pathlib", "import pathlib\nprint(pathlib.Path('{SECRET}').read_text())"),
                attack("read with posix.open", "import posix\nfd = posix.open('{SECRET}', 0)\nprint(posix.read(fd, 200))"),
                attack("list a host directory", "import os\nprint(os.listdir('{CANARY_DIR}'))"),
                attack("read through linecache", "import linecache\nprint(linecache.getlines('{SECRET}'))"),
                attack("leak a file through a traceback of compile() with its path",
                        "import traceback\ntry:\n    exec(compile('1/0', '{SECRET}', 'exec'))\nexcept Exception:\n    traceback.print_exc()"),
                attack("traverse out of the language home", "import sys\nprint(open(sys.prefix + '/..' * 12 + '{SECRET}').read())"),
                attack("read with __graalpython__.read_file", "import __graalpython__\nprint(__graalpython__.read_file('{SECRET}'))"),
                attack("create a file with open()", "open('{CREATE}', 'w').write('planted')"),
                attack("create a file with os.open", "import os\nfd = os.open('{CREATE}', os.O_CREAT | os.O_WRONLY)\nos.write(fd, b'planted')"),
                attack("zipfile extracting a member named out of the folder",
                        "import zipfile, os\nwith zipfile.ZipFile('evil.zip', 'w') as z:\n"
                                + "    z.writestr('../' * 12 + '{CREATE}'.lstrip('/'), 'planted')\n"
                                + "    z.writestr('{CREATE}', 'planted')\n"
                                + "zipfile.ZipFile('evil.zip').extractall('.')\nprint(sorted(os.listdir('.')))"),
                attack("tarfile extracting an absolute name, a link to a host file and one out of the folder",
                        "import tarfile, io\nbuf = io.BytesIO()\nwith tarfile.open(fileobj=buf, mode='w') as t:\n"
                                + "    for name, kind, target in [('{CREATE}', tarfile.REGTYPE, ''),\n"
                                + "                               ('link', tarfile.SYMTYPE, '{SECRET}'),\n"
                                + "                               ('hard', tarfile.LNKTYPE, '{SECRET}'),\n"
                                + "                               ('../' * 12 + '{CREATE}'.lstrip('/'), tarfile.REGTYPE, '')]:\n"
                                + "        info = tarfile.TarInfo(name)\n        info.type, info.linkname = kind, target\n"
                                + "        info.size = 7 if kind == tarfile.REGTYPE else 0\n"
                                + "        t.addfile(info, io.BytesIO(b'planted') if kind == tarfile.REGTYPE else None)\n"
                                + "buf.seek(0)\nwith tarfile.open(fileobj=buf) as t:\n"
                                + "    for member in t.getmembers():\n        try:\n"
                                + "            t.extract(member, '.', filter='fully_trusted')\n        except Exception as e:\n"
                                + "            print(member.name, type(e).__name__)\n"
                                + "for name in ('link', 'hard'):\n    try:\n        print(open(name).read())\n"
                                + "    except Exception as e:\n        print(name, type(e).__name__)"),
                attack("logging.FileHandler on a host path", "import logging\nh = logging.FileHandler('{CREATE}')\n"
                        + "logging.getLogger('x').addHandler(h)\nlogging.getLogger('x').error('planted')\nh.close()"),
                attack("logging.FileHandler reading a host file back through /tmp",
                        "import logging, os\nh = logging.FileHandler('/tmp/../{SECRET}', mode='a')\nprint(open(h.baseFilename).read())"),
                attack("plant a module in the standard library",
                        "import json, os\nopen(os.path.join(os.path.dirname(json.__file__), 'evil_planted.py'), 'w').write('print(1)')"),
                // --- processes ---
                attack("os.system", "import os\nos.system('touch {MARKER}')"),
                attack("subprocess.run", "import subprocess\nsubprocess.run(['touch', '{MARKER}'])"),
                attack("os.popen", "import os\nos.popen('touch {MARKER}').read()"),
                attack("asyncio subprocess", "import asyncio\nasync def main():\n"
                        + "    p = await asyncio.create_subprocess_exec('touch', '{MARKER}')\n    await p.wait()\nasyncio.run(main())"),
                attack("asyncio subprocess_shell", "import asyncio\nasync def main():\n"
                        + "    p = await asyncio.create_subprocess_shell('touch {MARKER}')\n    await p.wait()\nasyncio.run(main())"),
                attack("os.spawnv", "import os\nos.spawnv(os.P_WAIT, '/usr/bin/touch', ['touch', '{MARKER}'])"),
                attack("os.execv", "import os\nos.execv('/usr/bin/touch', ['touch', '{MARKER}'])"),
                attack("os.fork", "import os\nif os.fork() == 0:\n    open('{MARKER}', 'w')"),
                attack("_posixsubprocess", "import _posixsubprocess\nprint(_posixsubprocess)"),
                attack("posix via __subclasses__ and BuiltinImporter",
                        "bi = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'BuiltinImporter'][0]\n"
                                + "bi.load_module('posix').system('touch {MARKER}')"),
                attack("pickle __reduce__ calling os.system",
                        "import pickle, os\nclass E:\n    def __reduce__(self):\n        return (os.system, ('touch {MARKER}',))\n"
                                + "pickle.loads(pickle.dumps(E()))"),
                attack("ctypes CDLL(None).system", "import ctypes\nctypes.CDLL(None).system(b'touch {MARKER}')"),
                attack("_ctypes dlopen", "import _ctypes\nprint(_ctypes.dlopen(None))"),
                // --- network ---
                attack("socket.create_connection to a loopback listener",
                        "import socket\nsocket.create_connection(('127.0.0.1', {PORT}), timeout=2)"),
                attack("raw socket connect", "import socket\ns = socket.socket()\ns.connect(('127.0.0.1', {PORT}))"),
                attack("socket from the real _socket builtin, around the prelude's stand-in",
                        "bi = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'BuiltinImporter'][0]\n"
                                + "import sys\nsys.modules.pop('_socket', None)\n"
                                + "s = bi.load_module('_socket').socket()\ns.connect(('127.0.0.1', {PORT}))"),
                attack("socket type recovered from the stand-in's base class",
                        "import socket\nreal = socket.socket.__mro__[2]\ns = real.__new__(real)\nreal.__init__(s)\n"
                                + "s.connect(('127.0.0.1', {PORT}))"),
                attack("asyncio open_connection to a loopback listener", "import asyncio\n"
                        + "asyncio.run(asyncio.open_connection('127.0.0.1', {PORT}))"),
                attack("asyncio default loop with a real selector and socket pair", "import asyncio, selectors\n"
                        + "loop = asyncio.unix_events._UnixSelectorEventLoop(selectors.SelectSelector())\n"
                        + "loop.run_until_complete(asyncio.open_connection('127.0.0.1', {PORT}))"),
                attack("urllib.request", "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:{PORT}/', timeout=2)"),
                attack("http.client", "import http.client\nc = http.client.HTTPConnection('127.0.0.1', {PORT}, timeout=2)\nc.request('GET', '/')"),
                // --- host classes and other languages ---
                attack("java.type Runtime.exec", "import java\njava.type('java.lang.Runtime').getRuntime().exec('touch {MARKER}')"),
                attack("java.type Class.forName", "import java\nprint(java.type('java.lang.Class').forName('java.lang.Runtime'))"),
                attack("polyglot.eval into JavaScript", "import polyglot\nprint(polyglot.eval(language='js', string='1+1'))"),
                attack("polyglot.import_value", "import polyglot\nprint(polyglot.import_value('x'))"),
                // --- environment ---
                attack("read os.environ", "import os\nprint(dict(os.environ))"),
                attack("read posix.environ", "import posix\nprint(posix.environ)"),
                attack("os.getenv of the server's secret", "import os\nprint(os.getenv('{ENV}'))"),
                // --- frame and class walks that end in os.system ---
                attack("generator gi_frame to f_builtins",
                        "def gen():\n    yield 1\ng = gen()\n"
                                + "g.gi_frame.f_builtins['__import__']('os').system('touch {MARKER}')"),
                attack("traceback tb_frame to the outermost frame's builtins",
                        "try:\n    1/0\nexcept Exception as e:\n    f = e.__traceback__.tb_frame\n"
                                + "while f.f_back is not None:\n    f = f.f_back\nb = f.f_builtins\n"
                                + "(b['__import__'] if isinstance(b, dict) else b.__import__)('os').system('touch {MARKER}')"),
                attack("class walk to a method whose __globals__ hold os.system",
                        "hits = [c.__init__.__globals__ for c in object.__subclasses__()\n"
                                + "        if 'system' in getattr(c.__init__, '__globals__', {})]\n"
                                + "print(len(hits))\nhits[0]['system']('touch {MARKER}')"),
                attack("class walk to a method whose __globals__ hold __builtins__",
                        "hits = [c.__init__.__globals__['__builtins__'] for c in object.__subclasses__()\n"
                                + "        if '__builtins__' in getattr(c.__init__, '__globals__', {})]\n"
                                + "b = hits[0]\n(b['__import__'] if isinstance(b, dict) else b.__import__)('os').system('touch {MARKER}')"),
                attack("string.Formatter get_field to __globals__",
                        "import string\ng = string.Formatter().get_field('0.__globals__', [lambda: 0], {})[0]\n"
                                + "g['__builtins__']['__import__']('os').system('touch {MARKER}')"),
                attack("sys.modules['os'] after the import layer", "import sys\nsys.modules['os'].system('touch {MARKER}')"),
                attack("importlib.import_module", "import importlib\nimportlib.import_module('os').system('touch {MARKER}')"),
                attack("__import__ with foreign globals", "__import__('os', {'__name__': 'json'}).system('touch {MARKER}')"),
                // --- signals, threads, the server ---
                attack("raise SIGTERM at the worker", "import signal\nsignal.raise_signal(signal.SIGTERM)"),
                attack("ignore SIGTERM process-wide", "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)"),
                attack("schedule SIGALRM", "import signal, time\nsignal.alarm(1)\ntime.sleep(2)"),
                attack("kill the parent process", "import os\nos.kill(os.getppid(), 9)"),
                attack("kill every process", "import os\nos.kill(-1, 9)"),
                attack("start a thread", "import threading\nthreading.Thread(target=print).start()"),
                attack("start a raw _thread", "import _thread\n_thread.start_new_thread(print, ())"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attacks")
    void payloadReachesNothing(String payload, TestInfo test) {
        Map<String, Object> result = server.python(fill(payload));
        String everything = WireCodec.encode(result);
        System.out.println("[attack outcome] " + test.getDisplayName() + " -> " + result.get("status") + " | "
                + result.get("error_message"));
        String error = String.valueOf(result.get("error_message"));
        // A payload that never ran would "reach nothing" for free: make sure it is not broken itself.
        assertFalse(error.startsWith("SyntaxError") || error.startsWith("IndentationError") || error.startsWith("NameError"),
                "the payload itself is broken: " + error);
        assertFalse(everything.contains(FILE_SECRET), "read the canary file: " + everything);
        assertFalse(everything.contains(ENV_SECRET), "saw the server's environment: " + everything);
        assertFalse(Files.exists(MUST_NOT_CREATE), "created a file on the host");
        assertFalse(Files.exists(PROCESS_MARKER), "started a process on the host");
        assertEquals(0, connections.get(), "reached the loopback listener");
    }

    @Test
    void networkRefusalsAreOrdinaryOSErrorsThatCodeCanCatch() {
        // Libraries probe for the network (urllib3 at import) and expect OSError on a host without one; the
        // context's own refusal is a host error that no `except` catches, which used to end the call.
        String code = fill("""
                import socket
                for name, attempt in [('socket', lambda: socket.socket()),
                                      ('getaddrinfo', lambda: socket.getaddrinfo('localhost', {PORT})),
                                      ('create_connection', lambda: socket.create_connection(('127.0.0.1', {PORT}), timeout=2))]:
                    try:
                        attempt()
                        print(name, 'was allowed')
                    except OSError as e:
                        print(name, type(e).__name__, e)
                print('hostname', socket.gethostname())
                """);
        Map<String, Object> result = server.python(code);
        assertEquals("success", result.get("status"), () -> WireCodec.encode(result));
        assertEquals("""
                socket PermissionError socket.socket: network access is not available in this sandbox
                getaddrinfo PermissionError socket.getaddrinfo: network access is not available in this sandbox
                create_connection PermissionError socket.getaddrinfo: network access is not available in this sandbox
                hostname sandbox
                """, result.get("stdout"));
        assertEquals(0, connections.get(), "reached the loopback listener");
    }

    @Test
    void attackPatchBuiltinsForTheNextCall() {
        server.python("import builtins\nbuiltins.len = lambda x: 42\nbuiltins.print = None");
        assertEquals("2\n", server.python("print(len([1, 2]))").get("stdout"));
    }

    @Test
    void attackPatchAModuleForTheNextCall() {
        server.python("import json\njson.dumps = lambda *a, **k: 'poisoned'");
        assertEquals("[1]\n", server.python("import json\nprint(json.dumps([1]))").get("stdout"));
    }

    @Test
    void attackReadAnotherSessionsVariables() {
        String secret = "SESSION-SECRET-" + UUID.randomUUID();
        server.execute(Map.of("language", "python", "code", "kept = '" + secret + "'", "session_id", "victim"));
        Map<String, Object> spy = server.execute(Map.of("language", "python", "session_id", "spy", "code",
                "import gc, sys\nfound = [o for o in gc.get_objects() if isinstance(o, str) and 'SESSION-SECRET' in o]"
                        + " if hasattr(gc, 'get_objects') else []\nprint(found, [m for m in sys.modules if 'victim' in m])"));
        assertFalse(WireCodec.encode(spy).contains(secret), WireCodec.encode(spy));
        assertEquals("success", spy.get("status"), () -> WireCodec.encode(spy));
    }

    @AfterEach
    void serverStillAnswersAndStdlibIsClean() throws IOException {
        assertEquals("alive\n", server.python("print('alive')").get("stdout"), "the server must survive");
        // Where the server unpacks the standard library by default (worker.cache-dir).
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = (xdg == null || xdg.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(xdg))
                .resolve("python-sandbox-mcp");
        assertTrue(Files.isDirectory(cache), "no standard library unpacked at " + cache + ": the check would see nothing");
        try (Stream<Path> files = Files.walk(cache)) {
            List<Path> planted = files.filter(p -> p.getFileName().toString().startsWith("evil_planted")).toList();
            assertEquals(List.of(), planted, "planted code in the standard library");
        }
    }
}
