package dev.pysandbox.e2e;

import java.net.URI;
import java.util.List;
import java.util.Map;

import com.nimbusds.oauth2.sdk.GrantType;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.id.ClientID;

import no.nav.security.mock.oauth2.token.OAuth2TokenCallback;

/**
 * The policy of OAuthIT's authorization server (mock-oauth2-server), as an operator would configure a real one:
 * an access token's audience is the resource the client asked for (RFC 8707's {@code resource} parameter, which
 * MCP clients send), its scope is the scope asked for or, when none was, the client's default scopes (ours), and
 * its subject is the client for client credentials, or the user it signed in for the authorization code flow.
 */
final class ResourceBoundTokens implements OAuth2TokenCallback {
    static final String DEFAULT_SCOPES = "sandbox:execute sandbox:tools";

    private final String issuerId;

    ResourceBoundTokens(String issuerId) {
        this.issuerId = issuerId;
    }

    @Override
    public String issuerId() {
        return issuerId;
    }

    @Override
    public String subject(TokenRequest request) {
        String client = client(request);
        return GrantType.CLIENT_CREDENTIALS.equals(request.getAuthorizationGrant().getType()) ? client : "user-of-" + client;
    }

    @Override
    public String typeHeader(TokenRequest request) {
        return "JWT";
    }

    @Override
    public List<String> audience(TokenRequest request) {
        List<URI> resources = request.getResources();
        return resources == null || resources.isEmpty() ? List.of("no-resource-asked-for")
                : resources.stream().map(URI::toString).toList();
    }

    @Override
    public Map<String, Object> addClaims(TokenRequest request) {
        return Map.of("scope", request.getScope() == null ? DEFAULT_SCOPES : request.getScope().toString());
    }

    @Override
    public long tokenExpiry() {
        return 3600;
    }

    private static String client(TokenRequest request) {
        ClientAuthentication authentication = request.getClientAuthentication();
        ClientID id = authentication != null ? authentication.getClientID() : request.getClientID();
        return id == null ? "unknown-client" : id.getValue();
    }
}
