package dev.pysandbox.bridge;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A set of tool-name globs: {@code *} is any run of characters (dots included, so {@code server.*} covers
 * every tool of a server), {@code ?} is one character, and everything else is literal, because tool names
 * are full of regex metacharacters ({@code .}, {@code -}, {@code +}) that must not be read as patterns.
 * Matching is case-sensitive, as MCP tool names are.
 */
public final class ToolPatterns {
    private static final ToolPatterns NOTHING = new ToolPatterns(List.of(), null);
    private static final ToolPatterns EVERYTHING = new ToolPatterns(List.of("*"), Pattern.compile(".*", Pattern.DOTALL));

    private final List<String> globs;
    /** All globs as one alternation; null when there are none, which matches nothing. */
    private final Pattern pattern;

    private ToolPatterns(List<String> globs, Pattern pattern) {
        this.globs = globs;
        this.pattern = pattern;
    }

    /** Null or empty matches nothing: exposing a tool must always be a deliberate choice. */
    public static ToolPatterns of(List<String> globs) {
        if (globs == null || globs.isEmpty()) {
            return NOTHING;
        }
        String alternation = globs.stream().map(ToolPatterns::regex).collect(Collectors.joining("|"));
        return new ToolPatterns(List.copyOf(globs), Pattern.compile(alternation, Pattern.DOTALL));
    }

    /**
     * A call's own {@code allowed_tools} (qualified {@code server.tool} globs), meant to be ANDed with
     * {@link #allowed}, so it can only narrow what the operator allowed. Globs behave as in {@link #of};
     * the one difference is null: a call that gave no list narrows nothing, so null matches everything,
     * while an empty list still matches nothing.
     */
    public static ToolPatterns narrowing(List<String> globs) {
        return globs == null ? EVERYTHING : of(globs);
    }

    /**
     * The whole exposure rule in one place. A server's own {@code tools}/{@code denyTools} match the bare
     * tool name, as the operator sees it in that server's listing; the global settings match the qualified
     * {@code server.tool}, as code calls it. Deny always wins, and nothing is allowed by default.
     */
    public static boolean allowed(ServerEntry server, String tool, ToolPatterns globalAllow,
            ToolPatterns globalDeny) {
        String qualified = server.name() + "." + tool;
        boolean allow = of(server.tools()).matches(tool) || globalAllow.matches(qualified);
        boolean deny = of(server.denyTools()).matches(tool) || globalDeny.matches(qualified);
        return allow && !deny;
    }

    public boolean matches(String name) {
        return pattern != null && pattern.matcher(name).matches();
    }

    /** True when this matches nothing at all. */
    public boolean isEmpty() {
        return pattern == null;
    }

    public List<String> globs() {
        return globs;
    }

    @Override
    public String toString() {
        return "ToolPatterns" + globs;
    }

    private static String regex(String glob) {
        StringBuilder regex = new StringBuilder("(?:");
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                regex.append(Pattern.quote(literal.toString())).append(c == '*' ? ".*" : ".");
                literal.setLength(0);
            } else {
                literal.append(c);
            }
        }
        return regex.append(Pattern.quote(literal.toString())).append(')').toString();
    }
}
