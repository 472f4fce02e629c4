package dev.pysandbox.mcp.transport.http;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.pysandbox.auth.Scope;

/**
 * The {@code WWW-Authenticate} a refused request gets (RFC 6750 §3). With the tokens file it names our realm;
 * as an OAuth resource server it points at the protected resource metadata and says which scopes to ask for, as
 * the MCP authorization specification asks, so that a client can start the OAuth flow from the 401 alone.
 *
 * @param resource null with the tokens file
 */
record BearerChallenge(ProtectedResource resource) {
    static final BearerChallenge REALM = new BearerChallenge(null);

    /** No token, or none the server knows: {@code error} is null for the former (RFC 6750 §3.1). */
    String unauthorized(String error, String description) {
        return header(Set.of(Scope.values()), error, description);
    }

    /**
     * A valid token without the scope the request needs: 403 {@code insufficient_scope}. The scopes named are the
     * needed ones and those the token holds, so that a client that asks again for them loses none (the MCP
     * authorization specification's step-up).
     */
    String insufficientScope(Set<Scope> needed, Set<Scope> held) {
        Set<Scope> asked = EnumSet.noneOf(Scope.class);
        asked.addAll(needed);
        asked.addAll(held);
        return header(asked, "insufficient_scope", "the token lacks the scope " + Scope.wireNames(needed));
    }

    private String header(Set<Scope> scopes, String error, String description) {
        List<String> parameters = new ArrayList<>();
        if (resource == null) {
            parameters.add("realm=\"python-sandbox-mcp\"");
        } else {
            parameters.add("resource_metadata=\"" + resource.metadataUrl() + "\"");
            parameters.add("scope=\"" + Scope.wireNames(scopes) + "\"");
        }
        if (error != null) {
            parameters.add("error=\"" + error + "\"");
            if (description != null && resource != null) {
                parameters.add("error_description=\"" + quotable(description) + "\"");
            }
        }
        return "Bearer " + String.join(", ", parameters);
    }

    /** RFC 6750: error_description holds printable ASCII without '"' and '\'. */
    private static String quotable(String text) {
        String cut = text.length() > 200 ? text.substring(0, 200) : text;
        return cut.replaceAll("[^\\x20-\\x7e]|[\"\\\\]", "'");
    }
}
