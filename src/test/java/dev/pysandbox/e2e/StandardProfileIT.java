package dev.pysandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The modules the default {@code standard} profile adds for the work agents do in memory (issue 10): each one
 * imports and does its job on in-memory data, and the ones that could reach files still cannot.
 */
class StandardProfileIT {
    private final SandboxServer server = SharedServer.get();

    private Map<String, Object> run(String code) {
        // First imports in a fresh context can take seconds on a loaded two-core machine.
        return server.execute(Map.of("language", "python", "timeout", 120, "code", code));
    }

    private void assertPrints(String expected, String code) {
        Map<String, Object> result = run(code);
        assertEquals("success", result.get("status"), result::toString);
        assertEquals(expected, result.get("stdout"));
    }

    @Test
    void ioGivesInMemoryStreams() {
        assertPrints("a,b|b'xyz'|2\n", """
                import io, csv
                text = io.StringIO('a,b\\n1,2\\n')
                rows = list(csv.reader(text))
                data = io.BytesIO()
                data.write(b'xyz')
                print(','.join(rows[0]), data.getvalue(), len(rows), sep='|')
                """);
    }

    /** Attack: reach the host's files through io, which the profile now allows, instead of the builtin open. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "io.open('/etc/passwd').read()",
            "io.FileIO('/etc/passwd').read()",
            "io.open('/var/tmp/planted-by-sandbox', 'w').write('x')",
            "io.FileIO('/etc/hostname', 'r').readall()"})
    void ioStillCannotOpenHostFiles(String attempt) {
        Map<String, Object> result = run("import io\nprint(" + attempt + ")");
        assertEquals("execution_error", result.get("status"), result::toString);
        assertTrue(((String) result.get("error_message")).startsWith("PermissionError"), result::toString);
        assertEquals("", result.get("stdout"));
    }

    /** Attack: plant a file in the host's /tmp through io; the guest's /tmp is its own scratch space in memory. */
    @Test
    void ioWritesToTmpStayInTheScratchSpace() {
        java.nio.file.Path host = java.nio.file.Path.of("/tmp/planted-by-sandbox-" + java.util.UUID.randomUUID());
        Map<String, Object> result = run("import io\nio.open('" + host + "', 'w').write('x')\nprint(io.open('" + host
                + "').read())");
        assertEquals("x\n", result.get("stdout"), result::toString);
        assertFalse(java.nio.file.Files.exists(host), "reached the host's /tmp");
    }

    /** GraalPy left these to a native module the sandbox cannot load; the output is CPython's. */
    @Test
    void unicodedataLookupsAndTheIdnaCodecWork() {
        assertPrints("a 0.5 7 7 <fraction> 0031 2044 0032 0065 0301 F 230 1 None\nb'xn--bcher-kva.de' bücher.de 3.2.0\n", """
                import unicodedata as u
                print(u.lookup('LATIN SMALL LETTER A'), u.numeric('\u00bd'), u.decimal('7'), u.digit('7'),
                      u.decomposition('\u00bd'), u.decomposition('\u00e9'), u.east_asian_width('\uff21'),
                      u.combining('\u0301'), u.mirrored('('), u.numeric('x', None))
                print('bücher.de'.encode('idna'), b'xn--bcher-kva.de'.decode('idna'), u.ucd_3_2_0.unidata_version)
                """);
    }

    @Test
    void htmlEscapesAndParses() {
        assertPrints("&lt;a href=&quot;x&quot;&gt; <&> [('p', [('class', 'x')]), ('br', [])]\n", """
                import html
                from html.parser import HTMLParser
                class Tags(HTMLParser):
                    def __init__(self):
                        super().__init__()
                        self.seen = []
                    def handle_starttag(self, tag, attrs):
                        self.seen.append((tag, attrs))
                parser = Tags()
                parser.feed('<p class="x">hi<br></p>')
                print(html.escape('<a href="x">'), html.unescape('&lt;&amp;&gt;'), parser.seen)
                """);
    }

    @Test
    void stringFormatsAndTemplates() {
        assertPrints("Hello, Ada! abcdefghijklmnopqrstuvwxyz Two Words\n", """
                import string
                print(string.Template('Hello, $name!').substitute(name='Ada'), string.ascii_lowercase,
                      string.capwords('two words'))
                """);
    }

    @Test
    void graphlibSortsTopologically() {
        assertPrints("['a', 'b', 'c', 'd']\n", """
                import graphlib
                print(list(graphlib.TopologicalSorter({'d': {'c'}, 'c': {'b'}, 'b': {'a'}}).static_order()))
                """);
    }

    @Test
    void secretsMakesTokens() {
        assertPrints("32 True 16\n", """
                import secrets
                token = secrets.token_hex(16)
                print(len(token), secrets.choice('ab') in 'ab', len(secrets.token_bytes(16)))
                """);
    }

    @Test
    void ipaddressComputesNetworks() {
        assertPrints("256 True 10.0.0.255 False\n", """
                import ipaddress
                net = ipaddress.ip_network('10.0.0.0/24')
                print(net.num_addresses, ipaddress.ip_address('10.0.0.7') in net, net.broadcast_address,
                      ipaddress.ip_address('8.8.8.8').is_private)
                """);
    }

    @Test
    void contextlibAndAbcWork() {
        assertPrints("enter exit suppressed 3 True\n", """
                import contextlib, abc
                @contextlib.contextmanager
                def scope():
                    print('enter', end=' ')
                    yield
                    print('exit', end=' ')
                with scope():
                    pass
                with contextlib.suppress(KeyError):
                    {}['missing']
                print('suppressed', end=' ')
                class Shape(abc.ABC):
                    @abc.abstractmethod
                    def sides(self): ...
                class Triangle(Shape):
                    def sides(self):
                        return 3
                print(Triangle().sides(), issubclass(Triangle, Shape))
                """);
    }

    @Test
    void shlexAndFnmatchSplitAndMatch() {
        assertPrints("['grep', '-n', 'two words', 'file.txt'] 'it'\"'\"'s' ['a.py', 'c.py']\n", """
                import shlex, fnmatch
                print(shlex.split('grep -n "two words" file.txt'), shlex.quote("it's"),
                      fnmatch.filter(['a.py', 'b.txt', 'c.py'], '*.py'))
                """);
    }

    @Test
    void colorsysConverts() {
        assertPrints("(0.0, 1.0, 1.0) (1.0, 0.0, 0.0)\n", """
                import colorsys
                print(colorsys.rgb_to_hsv(1.0, 0.0, 0.0), colorsys.hsv_to_rgb(0.0, 1.0, 1.0))
                """);
    }

    @Test
    void zlibAndGzipWorkOnBytesInMemory() {
        assertPrints("True True 907060870 True\n", """
                import zlib, gzip
                data = b'agent output ' * 1000
                packed = zlib.compress(data)
                print(len(packed) < len(data) // 10, zlib.decompress(packed) == data, zlib.crc32(b'hello'),
                      gzip.decompress(gzip.compress(data)) == data)
                """);
    }

    @Test
    void elementTreeBuildsAndSerializesTrees() {
        assertPrints("<root><item id=\"1\">one</item><item id=\"2\">two</item></root> ['one', 'two']\n", """
                import xml.etree.ElementTree as ET
                root = ET.Element('root')
                for i, name in enumerate(['one', 'two'], 1):
                    ET.SubElement(root, 'item', id=str(i)).text = name
                print(ET.tostring(root, encoding='unicode'), [e.text for e in root.iter('item')])
                """);
    }

    /**
     * GraalPy 25.2 brings an expat parser, so ElementTree parses text; and it parses safely: an external entity
     * is not read from the host, an external DTD is not fetched, and entity expansion is bounded.
     */
    @Test
    void elementTreeParsesXml() {
        Map<String, Object> result = run("import xml.etree.ElementTree as ET\n"
                + "root = ET.fromstring('<a x=\"1\"><b>one</b><b>two</b><!-- c --></a>')\n"
                + "print(root.get('x'), [b.text for b in root.iter('b')], ET.tostring(root).decode())");
        assertEquals("1 ['one', 'two'] <a x=\"1\"><b>one</b><b>two</b></a>\n", result.get("stdout"), result::toString);
    }

    @Test
    void attackXmlEntitiesReachNeitherTheHostNorTheHeap() {
        Map<String, Object> result = run("""
                import xml.etree.ElementTree as ET
                external = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/hostname">]><x>&e;</x>'
                try:
                    text = ET.fromstring(external).text  # GraalPy leaves the entity empty
                except ET.ParseError:
                    text = None  # CPython: undefined entity
                print(text in ('', None))
                print(ET.fromstring('<!DOCTYPE x SYSTEM "http://127.0.0.1:9/x.dtd"><x>1</x>').text)
                laughs = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">' + ''.join(
                    '<!ENTITY %s "%s">' % (chr(98 + i), ('&%s;' % chr(97 + i)) * 10) for i in range(8)) + ']><x>&i;</x>'
                try:
                    ET.fromstring(laughs)
                    print('expanded')
                except ET.ParseError as e:
                    print('refused:', e)
                """);
        String stdout = (String) result.get("stdout");
        assertTrue(stdout.startsWith("True\n1\nrefused: limit on input amplification factor"), result::toString);
    }
}
