package dev.pysandbox.mcp.transport.http;

import java.util.List;
import java.util.Locale;

/**
 * The {@code Host} and {@code Origin} rules of Streamable HTTP: a browser page must not reach the server
 * through a rebound DNS name (Host not ours: 421) or from a site the operator did not name (Origin not ours:
 * 403). Requests without an Origin (every non-browser client) pass the Origin rule.
 *
 * <p>Patterns are {@code name[:port]} for hosts and {@code scheme://name[:port]} for origins; a port of
 * {@code *} matches any port or none.
 */
final class OriginCheck {
    static final int OK = 0;

    private final List<String> hosts;
    private final List<String> origins;

    /** @param hosts empty for no Host check; {@code origins} empty means no Origin is accepted */
    OriginCheck(List<String> hosts, List<String> origins) {
        this.hosts = hosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
        this.origins = origins.stream().map(o -> o.toLowerCase(Locale.ROOT)).toList();
    }

    /** {@link #OK}, or the HTTP status the request gets: 421 for its Host, 403 for its Origin. */
    int check(String host, String origin) {
        if (!hosts.isEmpty() && (host == null || hosts.stream().noneMatch(p -> matches(p, host.toLowerCase(Locale.ROOT))))) {
            return 421;
        }
        if (origin != null && origins.stream().noneMatch(p -> matches(p, origin.toLowerCase(Locale.ROOT)))) {
            return 403;
        }
        return OK;
    }

    static boolean matches(String pattern, String value) {
        if (pattern.endsWith(":*")) {
            String base = pattern.substring(0, pattern.length() - 2);
            return value.equals(base) || value.startsWith(base + ":") && value.substring(base.length() + 1).matches("\\d{1,5}");
        }
        return value.equals(pattern);
    }
}
