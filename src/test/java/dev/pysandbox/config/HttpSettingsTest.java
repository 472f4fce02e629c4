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
