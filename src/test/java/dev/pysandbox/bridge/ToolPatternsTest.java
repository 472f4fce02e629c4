package dev.pysandbox.bridge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ToolPatternsTest {
    private static final ToolPatterns NONE = ToolPatterns.of(List.of());

    private static ServerEntry server(List<String> tools, List<String> denyTools) {
        return new ServerEntry("fs", ServerEntry.Kind.STDIO, "npx", null, null, null, null, null, tools,
                denyTools, null, false);
    }

    @Test
    void literalMatchesOnlyItself() {
        ToolPatterns patterns = ToolPatterns.of(List.of("echo"));
        assertTrue(patterns.matches("echo"));
        assertFalse(patterns.matches("echo2"));
        assertFalse(patterns.matches("Echo"));
    }

    @Test
    void starMatchesAnyRunIncludingDotsAndNothing() {
        ToolPatterns patterns = ToolPatterns.of(List.of("get-*"));
        assertTrue(patterns.matches("get-"));
        assertTrue(patterns.matches("get-env"));
        assertTrue(patterns.matches("get-a.b.c"));
        assertFalse(patterns.matches("forget-env"));
        assertTrue(ToolPatterns.of(List.of("fs.*")).matches("fs.read.file"));
    }

    @Test
    void questionMarkMatchesExactlyOneCharacter() {
        ToolPatterns patterns = ToolPatterns.of(List.of("v?"));
        assertTrue(patterns.matches("v1"));
        assertTrue(patterns.matches("v."));
        assertFalse(patterns.matches("v"));
        assertFalse(patterns.matches("v12"));
    }

    @Test
    void regexMetacharactersAreLiteral() {
        assertTrue(ToolPatterns.of(List.of("a.b")).matches("a.b"));
        assertFalse(ToolPatterns.of(List.of("a.b")).matches("axb"));
        assertTrue(ToolPatterns.of(List.of("a+")).matches("a+"));
        assertFalse(ToolPatterns.of(List.of("a+")).matches("aa"));
        assertTrue(ToolPatterns.of(List.of("x[1]|(y)\\E$^")).matches("x[1]|(y)\\E$^"));
        assertFalse(ToolPatterns.of(List.of("x[1]|(y)")).matches("y"));
    }

    @Test
    void anyOfSeveralGlobs() {
        ToolPatterns patterns = ToolPatterns.of(List.of("echo", "get-*"));
        assertTrue(patterns.matches("echo"));
        assertTrue(patterns.matches("get-sum"));
        assertFalse(patterns.matches("add"));
    }

    @Test
    void emptyMatchesNothing() {
        assertTrue(NONE.isEmpty());
        assertTrue(ToolPatterns.of(null).isEmpty());
        assertFalse(NONE.matches(""));
        assertFalse(NONE.matches("echo"));
        assertFalse(ToolPatterns.allowed(server(List.of(), List.of()), "echo", NONE, NONE));
    }

    @Test
    void serverListAllowsByBareName() {
        ServerEntry fs = server(List.of("read_*"), List.of());
        assertTrue(ToolPatterns.allowed(fs, "read_file", NONE, NONE));
        assertFalse(ToolPatterns.allowed(fs, "write_file", NONE, NONE));
        assertFalse(ToolPatterns.allowed(server(List.of("fs.read_*"), List.of()), "read_file", NONE, NONE),
                "a server's own list matches the bare name, not server.tool");
    }

    @Test
    void denyBeatsAllow() {
        ServerEntry fs = server(List.of("*"), List.of("write_*"));
        assertTrue(ToolPatterns.allowed(fs, "read_file", NONE, NONE));
        assertFalse(ToolPatterns.allowed(fs, "write_file", NONE, NONE));
        assertFalse(ToolPatterns.allowed(server(List.of(), List.of("write_*")), "write_file",
                ToolPatterns.of(List.of("fs.*")), NONE));
    }

    @Test
    void globalAllowMatchesQualifiedName() {
        ServerEntry fs = server(List.of(), List.of());
        ToolPatterns globalAllow = ToolPatterns.of(List.of("fs.*"));
        assertTrue(ToolPatterns.allowed(fs, "read_file", globalAllow, NONE));
        assertFalse(ToolPatterns.allowed(fs, "read_file", ToolPatterns.of(List.of("other.*")), NONE));
        assertFalse(ToolPatterns.allowed(fs, "read_file", ToolPatterns.of(List.of("read_file")), NONE),
                "global globs match server.tool, not the bare name");
    }

    @Test
    void globalDenyOverridesServerAllow() {
        ServerEntry fs = server(List.of("*"), List.of());
        ToolPatterns globalDeny = ToolPatterns.of(List.of("*.write_*", "fs.delete"));
        assertTrue(ToolPatterns.allowed(fs, "read_file", NONE, globalDeny));
        assertFalse(ToolPatterns.allowed(fs, "write_file", NONE, globalDeny));
        assertFalse(ToolPatterns.allowed(fs, "delete", NONE, globalDeny));
    }

    @Test
    void narrowingWithoutAListNarrowsNothingButAnEmptyListNarrowsToNothing() {
        assertTrue(ToolPatterns.narrowing(null).matches("fs.read_file"));
        assertFalse(ToolPatterns.narrowing(null).isEmpty());
        assertFalse(ToolPatterns.narrowing(List.of()).matches("fs.read_file"));
        ToolPatterns call = ToolPatterns.narrowing(List.of("fs.read_*"));
        assertTrue(call.matches("fs.read_file"));
        assertFalse(call.matches("fs.write_file"));
    }
}
