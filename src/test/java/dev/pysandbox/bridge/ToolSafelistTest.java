package dev.pysandbox.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

import dev.pysandbox.execution.ToolErrorKind;

/**
 * Which downstream tools a call may use: one table of allow-list and narrowing cases, asked of the refusal
 * ({@link ToolSafelist#permit}) and of the listing ({@link ToolSafelist#callable}), so that what code is
 * shown never disagrees with what it may call.
 */
class ToolSafelistTest {
    /** Offers its read_* tools and list, never read_secret. */
    private static final ServerEntry FS = server("fs", List.of("read_*", "list"), List.of("read_secret"), false);
    /** Offers nothing by itself: code-mode.allow lets code call web.fetch. */
    private static final ServerEntry WEB = server("web", List.of(), List.of(), false);
    /** Offers everything. */
    private static final ServerEntry ALL = server("all", List.of("*"), List.of(), false);
    /** Offers everything, but is disabled in the file. */
    private static final ServerEntry OFF = server("off", List.of("*"), List.of(), true);

    /** code-mode.allow adds web.fetch; code-mode.deny removes fs.list, which fs's own list offers. */
    private final ToolSafelist safelist = new ToolSafelist(List.of("web.fetch"), List.of("fs.list"),
            List.of(FS, WEB, ALL, OFF));

    private static ServerEntry server(String name, List<String> tools, List<String> denyTools, boolean disabled) {
        return new ServerEntry(name, ServerEntry.Kind.STDIO, "/bin/false", null, null, null, null, null, tools,
                denyTools, null, disabled);
    }

    /**
     * A call of {@code id} by a call whose {@code allowed_tools} is {@code narrowTo} (null: none given).
     *
     * @param refusal null when the call is permitted; else a part of the not_allowed message
     */
    private record Case(String id, List<String> narrowTo, String refusal) {
        static Case of(String id, String refusal, String... narrowTo) {
            return new Case(id, narrowTo.length == 1 && narrowTo[0] == null ? null : Arrays.asList(narrowTo), refusal);
        }

        ToolPatterns narrowing() {
            return ToolPatterns.narrowing(narrowTo);
        }
    }

    private static final String ANY = null;
    private static final String ALLOW_LIST = "not on the operator's allow-list";
    private static final String ALLOWED_TOOLS = "not in this call's allowed_tools";
    private static final String RECURSION = "(no recursion)";

    private static final List<Case> OPERATOR = List.of(
            Case.of("fs.read_file", null, ANY),
            Case.of("fs.list", ALLOW_LIST, ANY),              // code-mode.deny wins over the server's tools
            Case.of("fs.read_secret", ALLOW_LIST, ANY),       // the server's denyTools win over its tools
            Case.of("fs.write_file", ALLOW_LIST, ANY),        // nothing is allowed by default
            Case.of("fs.fs.read_file", ALLOW_LIST, ANY),      // the server's globs match the bare name
            Case.of("web.fetch", null, ANY),                  // code-mode.allow matches server.tool
            Case.of("web.post", ALLOW_LIST, ANY),
            Case.of("all.anything", null, ANY),
            Case.of("all.read.file", null, ANY));             // the tool's name may hold dots

    private static final List<Case> NARROWED = List.of(
            Case.of("fs.read_file", null, "fs.read_*"),
            Case.of("fs.read_file", ALLOWED_TOOLS, "web.*"),
            Case.of("fs.read_file", ALLOWED_TOOLS),           // an empty allowed_tools allows nothing
            Case.of("fs.read_file", ALLOWED_TOOLS, "read_file"), // the call's globs match server.tool
            Case.of("web.fetch", null, "*"),
            Case.of("all.anything", null, "all.any*", "fs.*"));

    /** Hostile calls: each tries to reach more than the operator allowed. */
    private static final List<Case> ATTACKS = List.of(
            Case.of("fs.read_secret", ALLOW_LIST, "*"),       // a call's list cannot widen the operator's
            Case.of("fs.list", ALLOW_LIST, "fs.list"),
            Case.of("web.post", ALLOW_LIST, "web.*"),
            Case.of("all.execute_code", RECURSION, ANY),      // tools that run code, whatever the globs say
            Case.of("all.run_python", RECURSION, "*"),
            Case.of("all.validate_code", RECURSION, ANY),
            Case.of("ghost.execute_code", RECURSION, ANY),    // refused before the server is looked up
            Case.of("ghost.tool", "no server 'ghost' is configured; servers: fs, web, all", ANY),
            Case.of("off.anything", "no server 'off' is configured", ANY),
            Case.of("FS.read_file", "no server 'FS'", ANY),   // names are case-sensitive
            Case.of("fs", "tools are named 'server.tool'; servers: fs, web, all", ANY),
            Case.of(".read_file", "tools are named 'server.tool'", ANY),
            Case.of("fs.", "tools are named 'server.tool'", ANY),
            Case.of("", "tools are named 'server.tool'", ANY));

    private void check(List<Case> cases) {
        for (Case rule : cases) {
            String label = rule.id() + " narrowed to " + rule.narrowTo();
            if (rule.refusal() == null) {
                ServerEntry server = assertDoesNotRefuse(rule, label);
                assertEquals(rule.id().substring(0, rule.id().indexOf('.')), server.name(), label);
            } else {
                ToolFailure refused = assertThrows(ToolFailure.class, () -> safelist.permit(rule.id(), rule.narrowing()),
                        label);
                assertEquals(ToolErrorKind.NOT_ALLOWED, refused.kind(), label);
                assertTrue(refused.getMessage().contains(rule.refusal()), label + ": " + refused.getMessage());
            }
        }
    }

    private ServerEntry assertDoesNotRefuse(Case rule, String label) {
        try {
            return safelist.permit(rule.id(), rule.narrowing());
        } catch (ToolFailure refused) {
            throw new AssertionError(label + " was refused: " + refused.getMessage(), refused);
        }
    }

    @Test
    void theOperatorsListsDecideAndDenyWins() {
        check(OPERATOR);
    }

    @Test
    void aCallsAllowedToolsNarrowsWhatTheOperatorAllowed() {
        check(NARROWED);
    }

    @Test
    void attackCallsThatWidenTheListRecurseOrNameNoConfiguredServerAreNotAllowed() {
        check(ATTACKS);
    }

    @Test
    void theListingShowsExactlyTheToolsACallMayUse() {
        for (List<Case> table : List.of(OPERATOR, NARROWED, ATTACKS)) {
            for (Case rule : table) {
                int dot = rule.id().indexOf('.');
                ServerEntry server = dot <= 0 ? null : List.of(FS, WEB, ALL).stream()
                        .filter(entry -> entry.name().equals(rule.id().substring(0, dot))).findFirst().orElse(null);
                if (server != null && dot < rule.id().length() - 1) {
                    assertEquals(rule.refusal() == null, safelist.callable(server, rule.id().substring(dot + 1),
                            rule.narrowing()), rule.toString());
                }
            }
        }
    }

    @Test
    void theListingOfAServersToolsIsSortedAndFiltered() {
        assertEquals(List.of("read_a", "read_b"), safelist.callable(FS, List.of("write", "read_b", "list", "read_a",
                "read_secret"), ToolPatterns.narrowing(null)));
        assertEquals(List.of("read_b"), safelist.callable(FS, List.of("read_b", "read_a"),
                ToolPatterns.narrowing(List.of("fs.read_b"))));
        assertEquals(List.of(), safelist.callable(ALL, List.of("execute_code", "run_python", "validate_code"),
                ToolPatterns.narrowing(null)));
    }

    private static Tool tool(ToolAnnotations hints) {
        return Tool.builder().name("t").inputSchema(McpJsonDefaults.getMapper(), "{\"type\":\"object\"}")
                .annotations(hints).build();
    }

    private static ToolAnnotations hints(Boolean readOnly, Boolean destructive, Boolean openWorld) {
        return new ToolAnnotations(null, readOnly, destructive, null, openWorld, null);
    }

    @Test
    void withNoCallableToolCodeReachesNothingOutside() {
        assertEquals(new ToolSafelist.Reach(true, false, false), ToolSafelist.reach(List.of()));
    }

    @Test
    void theReachReadsHintsTheCautiousWayAMissingHintMeansMay() {
        assertEquals(new ToolSafelist.Reach(true, false, false),
                ToolSafelist.reach(List.of(tool(hints(true, null, false)))), "read-only tools destroy nothing");
        assertEquals(new ToolSafelist.Reach(false, true, true), ToolSafelist.reach(List.of(tool(null))),
                "no hints at all");
        assertEquals(new ToolSafelist.Reach(false, true, true),
                ToolSafelist.reach(List.of(tool(hints(null, null, null)))), "hints without values");
        assertEquals(new ToolSafelist.Reach(false, false, false),
                ToolSafelist.reach(List.of(tool(hints(false, false, false)))), "a writer that says it destroys nothing");
        assertEquals(new ToolSafelist.Reach(false, true, false),
                ToolSafelist.reach(List.of(tool(hints(true, null, false)), tool(hints(false, true, false)))),
                "one destructive tool makes code destructive");
    }

    @Test
    void aDisabledServerIsNotConfigured() {
        assertFalse(safelist.serverNames().contains("off"));
        assertEquals("fs, web, all", safelist.serverNames());
    }
}
