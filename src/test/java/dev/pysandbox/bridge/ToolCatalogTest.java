package dev.pysandbox.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

import dev.pysandbox.bridge.ToolCatalog.ServerTools;
import dev.pysandbox.bridge.ToolCatalog.State;
import dev.pysandbox.execution.ToolErrorKind;

/**
 * What code finds with {@code context.tools.list}, {@code .search} and {@code .describe}, what validate_code
 * checks names against and what execute_code's description and hints are made of, over servers with fixed
 * tools: only what the safelist lets the asking call use is ever shown.
 */
class ToolCatalogTest {
    private static final Duration TIME = Duration.ofSeconds(1);
    private static final ToolPatterns ANY = ToolPatterns.narrowing(null);

    /** A server whose tools are known (or, with a problem or no tools, one that is not ready). */
    private record FixedServer(ServerEntry entry, Map<String, Tool> tools, String problem) implements ToolCatalog.Server {
        @Override
        public Object ready(Duration wait) throws ToolFailure {
            if (problem != null) {
                throw new ToolFailure(ToolErrorKind.SERVER_UNAVAILABLE, problem);
            }
            if (tools.isEmpty()) {
                throw new ToolFailure(ToolErrorKind.TIMEOUT, "still starting");
            }
            return this;
        }
    }

    private static Tool tool(String name, String title, String description, ToolAnnotations hints) {
        return Tool.builder().name(name).title(title).description(description)
                .inputSchema(McpJsonDefaults.getMapper(), "{\"type\":\"object\"}").annotations(hints).build();
    }

    private static final ToolAnnotations READ_ONLY = new ToolAnnotations(null, true, null, null, false, null);

    private static FixedServer server(String name, List<String> allowed, String problem, Tool... tools) {
        Map<String, Tool> byName = new LinkedHashMap<>();
        for (Tool tool : tools) {
            byName.put(tool.name(), tool);
        }
        return new FixedServer(new ServerEntry(name, ServerEntry.Kind.STDIO, "/bin/false", null, null, null, null,
                null, allowed, List.of("delete_*"), null, false), byName, problem);
    }

    private final FixedServer files = server("files", List.of("*"), null,
            tool("read_file", "Read a file", "Reads a file.\nSecond line, left out of summaries.", READ_ONLY),
            tool("list_dir", null, "Lists a directory of files", READ_ONLY),
            tool("delete_file", null, "Deletes a file", null),
            tool("execute_code", null, "Runs code", null));
    private final FixedServer web = server("web", List.of("fetch"), null,
            tool("fetch", "Fetch", "x".repeat(300), null),
            tool("post", null, "Posts to a url: not allowed", null));
    private final FixedServer starting = server("slow", List.of("*"), null);
    private final FixedServer broken = server("broken", List.of("*"), "refused: it says it is us");

    private final ToolCatalog catalog = catalog(files, web, starting, broken);

    private static ToolCatalog catalog(FixedServer... servers) {
        Map<String, FixedServer> byName = new LinkedHashMap<>();
        for (FixedServer server : servers) {
            byName.put(server.entry().name(), server);
        }
        return new ToolCatalog(byName, new ToolSafelist(List.of(), List.of(),
                byName.values().stream().map(FixedServer::entry).toList()), McpJsonDefaults.getMapper());
    }

    private static List<Object> ids(List<Map<String, Object>> summaries) {
        return summaries.stream().map(summary -> summary.get("tool")).toList();
    }

    @Test
    void listShowsEveryReadyServersCallableToolsSortedWithAOneLineSummary() throws ToolFailure {
        List<Map<String, Object>> listed = catalog.list("", ANY, TIME);
        assertEquals(List.of("files.list_dir", "files.read_file", "web.fetch"), ids(listed));
        assertEquals(Map.of("tool", "files.read_file", "title", "Read a file", "summary", "Reads a file."), listed.get(1));
        assertEquals("x".repeat(120) + "...", listed.get(2).get("summary"));
        assertEquals(List.of("web.fetch"), ids(catalog.list("web", ANY, TIME)));
        assertEquals(List.of(), ids(catalog.list("slow", ANY, TIME)), "listed once it is up");
        assertEquals(List.of("files.read_file"), ids(catalog.list("", ToolPatterns.narrowing(List.of("*.read_*")), TIME)));
    }

    @Test
    void listingAServerThatIsNotConfiguredNamesTheServers() {
        ToolFailure refused = assertThrows(ToolFailure.class, () -> catalog.list("ghost", ANY, TIME));
        assertEquals(ToolErrorKind.NOT_ALLOWED, refused.kind());
        assertEquals("no server 'ghost' is configured; servers: files, web, slow, broken", refused.getMessage());
    }

    @Test
    void searchRanksNameMatchesAboveDescriptionMatchesAndStopsAtTheLimit() {
        assertEquals(List.of("files.list_dir", "files.read_file"), ids(catalog.search("dir files", 5, ANY)));
        assertEquals(List.of("files.list_dir"), ids(catalog.search("dir files", 1, ANY)));
        assertEquals(3, catalog.search("", 5, ANY).size(), "no words: every callable tool");
        assertEquals(List.of(), ids(catalog.search("nothing-like-it", 5, ANY)));
    }

    @Test
    void attackSearchingForAToolThatIsNotCallableNeverShowsIt() {
        for (String words : List.of("delete", "post url", "execute code", "runs")) {
            assertEquals(List.of(), ids(catalog.search(words, 50, ANY)), words);
        }
        assertEquals(List.of(), ids(catalog.search("fetch", 5, ToolPatterns.narrowing(List.of("files.*")))));
    }

    @Test
    void describeGivesTheToolsDescriptionSchemasAndHints() throws ToolFailure {
        Map<String, Object> described = catalog.describe("files.read_file", ANY, TIME);
        assertEquals(List.of("tool", "title", "description", "input_schema", "output_schema", "annotations"),
                List.copyOf(described.keySet()));
        assertEquals("files.read_file", described.get("tool"));
        assertEquals(Map.of("type", "object"), described.get("input_schema"));
        assertEquals(true, ((Map<?, ?>) described.get("annotations")).get("readOnlyHint"));
    }

    @Test
    void attackDescribingAToolThatIsNotCallableOrNotOfferedIsNotAllowed() {
        for (String id : List.of("files.delete_file", "web.post", "files.execute_code", "files.missing", "ghost.x")) {
            ToolFailure refused = assertThrows(ToolFailure.class, () -> catalog.describe(id, ANY, TIME), id);
            assertEquals(ToolErrorKind.NOT_ALLOWED, refused.kind(), id);
        }
        ToolFailure missing = assertThrows(ToolFailure.class, () -> catalog.describe("files.missing", ANY, TIME));
        assertEquals("server 'files' has no tool 'missing'", missing.getMessage());
        ToolFailure narrowed = assertThrows(ToolFailure.class,
                () -> catalog.describe("web.fetch", ToolPatterns.narrowing(List.of("files.*")), TIME));
        assertTrue(narrowed.getMessage().contains("allowed_tools"), narrowed.getMessage());
    }

    @Test
    void describingAToolOfAServerThatIsNotUpSaysWhy() {
        ToolFailure refused = assertThrows(ToolFailure.class, () -> catalog.describe("broken.tool", ANY, TIME));
        assertEquals(ToolErrorKind.SERVER_UNAVAILABLE, refused.kind());
    }

    @Test
    void validateCodeKnowsEveryOfferedNameAndAllowsOnlyTheCallableOnes() {
        assertEquals(Map.of("known", List.of("files.read_file", "files.list_dir", "files.delete_file",
                "files.execute_code", "web.fetch", "web.post"), "allowed", List.of("files.read_file", "files.list_dir",
                "web.fetch")), catalog.names(ANY));
        assertEquals(List.of("web.fetch"), catalog.names(ToolPatterns.narrowing(List.of("web.*"))).get("allowed"));
    }

    @Test
    void eachServerIsListedInTheFilesOrderWithItsStateAndCallableTools() {
        assertEquals(List.of(new ServerTools("files", State.READY, List.of("list_dir", "read_file")),
                new ServerTools("web", State.READY, List.of("fetch")),
                new ServerTools("slow", State.STARTING, List.of()),
                new ServerTools("broken", State.UNAVAILABLE, List.of())), catalog.servers());
    }

    @Test
    void theReachCountsOnlyTheCallableTools() {
        assertEquals(new ToolSafelist.Reach(true, false, false), catalog(files).reach(),
                "delete_file and execute_code may destroy, but code cannot call them");
        assertEquals(new ToolSafelist.Reach(false, true, true), catalog.reach(), "web.fetch has no hints");
        assertEquals(new ToolSafelist.Reach(true, false, false), catalog(starting, broken).reach());
    }
}
