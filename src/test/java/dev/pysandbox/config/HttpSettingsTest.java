package dev.pysandbox.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The rules of remote mode's settings: what is refused at start, and the defaults that keep it closed. */
class HttpSettingsTest {
    private static ServerConfig config(String... pairs) throws ConfigException {
        Settings settings = Settings.defaults();
        for (int i = 0; i < pairs.length; i += 2) {
            settings = settings.with(pairs[i], pairs[i + 1], "test");
        }
        return ServerConfig.from(settings);
    }

    @Test
    void stdioIsTheDefaultAndHttpIsOffWithoutTokens() throws ConfigException {
        HttpSettings http = config().http();
        assertFalse(http.enabled());
        assertEquals("127.0.0.1", http.host());
        assertEquals("/mcp", http.path());
    }

    /** Attack: an operator exposes the server on the network without authentication. */
    @Test
    void noAuthenticationIsRefusedOffLoopback() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> config("transport", "http", "http.auth", "none", "http.host", "0.0.0.0"));
        assertTrue(e.getMessage().contains("http.auth=none is refused"), e.getMessage());
    }

    @Test
    void noAuthenticationIsAllowedOnLoopback() throws ConfigException {
        HttpSettings http = config("transport", "http", "http.auth", "none").http();
        assertTrue(http.enabled());
        assertNull(http.tokens());
    }

    @Test
    void tokenAuthenticationNeedsATokensFile() {
        ConfigException e = assertThrows(ConfigException.class, () -> config("transport", "http"));
        assertTrue(e.getMessage().contains("http.tokens-file"), e.getMessage());
    }

    @Test
    void oauthNeedsAnIssuerUrl() {
        for (String issuer : new String[] {"", "not a url", "ftp://idp.example.com", "/realms/agents"}) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> config("transport", "http", "http.auth", "oauth", "http.oauth.issuer", issuer), issuer);
            assertTrue(e.getMessage().contains("http.oauth.issuer"), e.getMessage());
        }
    }

    /** Off loopback the server cannot know the URL clients reach it at, and tokens are bound to that URL. */
    @Test
    void oauthOffLoopbackNeedsThePublicUrl() throws ConfigException {
        ConfigException e = assertThrows(ConfigException.class, () -> config("transport", "http", "http.auth", "oauth",
                "http.oauth.issuer", "https://idp.example.com/realms/agents", "http.host", "0.0.0.0"));
        assertTrue(e.getMessage().contains("http.public-url"), e.getMessage());
        HttpSettings http = config("transport", "http", "http.auth", "oauth", "http.oauth.issuer",
                "https://idp.example.com/realms/agents", "http.host", "0.0.0.0",
                "http.public-url", "https://sandbox.example.com").http();
        assertEquals(AuthMode.OAUTH, http.auth());
        assertEquals(java.net.URI.create("https://sandbox.example.com/mcp"), http.publicUrl(), "the path is http.path's");
        assertEquals(java.net.URI.create("https://idp.example.com/realms/agents"), http.oauth().issuer());
        assertNull(http.oauth().audience(), "the public URL by default");
        assertEquals(60, http.oauth().clockSkew().toSeconds());
        assertEquals(16_384, http.oauth().maxTokenBytes());
    }

    /** Attack: keys read over plain http across a network can be swapped by anyone on the path. */
    @Test
    void anIssuerOverPlainHttpIsRefusedUnlessItIsThisMachine() throws ConfigException {
        ConfigException e = assertThrows(ConfigException.class, () -> config("transport", "http", "http.auth", "oauth",
                "http.oauth.issuer", "http://idp.example.com/realms/agents"));
        assertTrue(e.getMessage().contains("https"), e.getMessage());
        assertEquals("http://localhost:8081/sandbox", config("transport", "http", "http.auth", "oauth",
                "http.oauth.issuer", "http://localhost:8081/sandbox").http().oauth().issuer().toString());
    }

    /** Nimbus refuses a key-refresh interval that is not below the 15 minutes it keeps keys. */
    @Test
    void theKeyRefreshIntervalStaysBelowTheKeysLifetime() {
        assertThrows(ConfigException.class, () -> config("http.auth", "oauth", "http.oauth.issuer",
                "https://idp.example.com", "http.oauth.jwks-refresh-seconds", "900"));
        assertThrows(ConfigException.class, () -> config("audit.log", "stderr", "audit.max-files", "21"));
    }

    @Test
    void aPublicUrlIsAnHttpUrlWithoutQuery() {
        for (String url : new String[] {"sandbox.example.com/mcp", "https://sandbox.example.com/mcp?x=1", "mailto:a@b"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> config("http.public-url", url), url);
            assertTrue(e.getMessage().contains("http.public-url"), e.getMessage());
        }
    }

    @Test
    void theAuditLogIsOffUnlessNamedAndNeverOnStdout() throws ConfigException {
        assertEquals(AuditSettings.OFF, config().audit());
        AuditSettings stderr = config("audit.log", "stderr").audit();
        assertTrue(stderr.enabled());
        assertNull(stderr.file());
        assertFalse(stderr.includeCode());
        ConfigException e = assertThrows(ConfigException.class, () -> config("audit.log", "stdout"));
        assertTrue(e.getMessage().contains("stdout carries the MCP protocol"), e.getMessage());
        ConfigException unwritable = assertThrows(ConfigException.class,
                () -> config("audit.log", "/no/such/folder/audit.log"));
        assertTrue(unwritable.getMessage().contains("audit.log: cannot write"), unwritable.getMessage());
        assertThrows(ConfigException.class, () -> config("audit.log", System.getProperty("java.io.tmpdir")),
                "a folder is no audit file");
    }

    /** Attack: DNS rebinding, a web page reaching the loopback server under a name of its own. */
    @Test
    void onLoopbackOnlyLoopbackHostsAndOriginsAreAcceptedByDefault() throws ConfigException {
        HttpSettings http = config("transport", "http", "http.auth", "none").http();
        assertEquals(List.of("localhost:*", "127.0.0.1:*", "[::1]:*"), http.allowedHosts());
        assertTrue(http.allowedOrigins().contains("http://localhost:*"));
        assertTrue(http.allowedOrigins().stream().noneMatch(origin -> origin.contains("example")));
    }

    @Test
    void offLoopbackNoOriginIsAcceptedUnlessNamed() throws ConfigException {
        HttpSettings http = config("transport", "http", "http.host", "0.0.0.0", "http.tokens-file", "/dev/null").http();
        assertTrue(http.allowedHosts().isEmpty());
        assertTrue(http.allowedOrigins().isEmpty());
    }

    @Test
    void maxInFlightDefaultsToFourCallsPerWorker() throws ConfigException {
        assertEquals(12, config("workers", "3").http().maxInFlight());
        assertEquals(5, config("workers", "3", "http.max-in-flight", "5").http().maxInFlight());
    }

    @Test
    void theProbePathsCannotBeTheEndpoint() {
        assertThrows(ConfigException.class, () -> config("http.path", "/readyz"));
        assertThrows(ConfigException.class, () -> config("http.path", "mcp"));
    }
}
