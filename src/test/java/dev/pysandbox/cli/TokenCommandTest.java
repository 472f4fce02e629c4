package dev.pysandbox.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.auth.BearerTokens;
import dev.pysandbox.config.ConfigException;
import dev.pysandbox.config.ServerConfig;

class TokenCommandTest {
    @TempDir
    Path temp;

    private record Outcome(int exitCode, String stdout, String messages) {
    }

    private static Outcome tokenAdd(String... args) throws ConfigException {
        String[] line = new String[args.length + 2];
        line[0] = "token";
        line[1] = "add";
        System.arraycopy(args, 0, line, 2, args.length);
        CommandLine parsed = CommandLine.parse(line);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        int exitCode = new TokenCommand(parsed.token(), ServerConfig.from(parsed.settings()).http().tokens())
                .execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(messages, true, StandardCharsets.UTF_8));
        return new Outcome(exitCode, out.toString(StandardCharsets.UTF_8), messages.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theAddedLineAdmitsThePrintedTokenAsItsCaller() throws Exception {
        Path file = temp.resolve("tokens");
        Outcome added = tokenAdd("--name", "alice", "--http.tokens-file=" + file);
        assertEquals(0, added.exitCode(), added.messages());
        String token = added.stdout().strip();
        assertEquals(added.stdout(), token + "\n", "stdout is the token and nothing else");
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), "256 random bits in URL-safe Base64: " + token);
        assertEquals(Optional.of("alice"), BearerTokens.read(file).principalFor(token));
        assertFalse(Files.readString(file).contains(token), "the file holds the digest only");
        assertFalse(added.messages().contains(token), "the token is printed once");
    }

    @Test
    void eachAddMakesAnotherTokenAndKeepsTheLinesThere() throws Exception {
        Path file = Files.writeString(temp.resolve("tokens"), "# the callers\nbob:" + "ab".repeat(32)); // no newline at the end
        String first = tokenAdd("--name", "alice", "--http.tokens-file=" + file).stdout().strip();
        String second = tokenAdd("--name", "alice", "--http.tokens-file=" + file).stdout().strip();
        assertFalse(first.equals(second));
        List<String> lines = Files.readAllLines(file);
        assertEquals("# the callers", lines.get(0));
        assertEquals("bob:" + "ab".repeat(32), lines.get(1));
        assertEquals(4, lines.size(), lines.toString());
        BearerTokens tokens = BearerTokens.read(file);
        assertEquals(Optional.of("alice"), tokens.principalFor(first));
        assertEquals(Optional.of("alice"), tokens.principalFor(second));
    }

    @Test
    void withoutANameTheCallerIsTheFirstFreeCallerN() throws Exception {
        Path file = temp.resolve("tokens");
        String first = tokenAdd("--http.tokens-file=" + file).stdout().strip();
        String second = tokenAdd("--http.tokens-file=" + file).stdout().strip();
        assertEquals(Optional.of("caller-1"), BearerTokens.read(file).principalFor(first));
        assertEquals(Optional.of("caller-2"), BearerTokens.read(file).principalFor(second));
    }

    @Test
    void aNewFileIsTheOwnersAlone() throws Exception {
        Path file = temp.resolve("tokens");
        tokenAdd("--http.tokens-file=" + file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void aFileTheServerWouldRefuseGetsNoLineAndTheMessageNamesTheBadLine() throws Exception {
        Path file = Files.writeString(temp.resolve("tokens"), "alice:" + "ab".repeat(32) + "\nbob:a-pasted-token\n");
        Outcome refused = tokenAdd("--name", "carol", "--http.tokens-file=" + file);
        assertEquals(2, refused.exitCode());
        assertEquals("", refused.stdout(), "no token for a caller the file does not admit");
        assertEquals("python-sandbox-mcp token add: " + file + " line 2: expected 'principal:sha256-hex' (principal of"
                + " letters, digits and ._@+-; the SHA-256 of the token as 64 hex digits); nothing was added\n",
                refused.messages());
        assertEquals(2, Files.readAllLines(file).size());
    }

    @Test
    void aNameTheFileCannotHoldIsRefused() throws Exception {
        Path file = temp.resolve("tokens");
        Outcome refused = tokenAdd("--name", "ali:ce", "--http.tokens-file=" + file);
        assertEquals(2, refused.exitCode());
        assertEquals("", refused.stdout());
        assertFalse(Files.exists(file));
    }

    @Test
    void withoutATokensFileItSaysWhichSettingNamesOne() throws Exception {
        Outcome refused = tokenAdd("--name", "alice");
        assertEquals(2, refused.exitCode());
        assertTrue(refused.messages().contains("--http.tokens-file=FILE"), refused.messages());
    }

    @Test
    void theCommandLineKnowsTokenAddAndNothingElseOfToken() throws ConfigException {
        assertEquals("alice", CommandLine.parse(new String[] {"token", "add", "--name", "alice"}).token().name());
        assertNull(CommandLine.parse(new String[] {"token", "add"}).token().name());
        assertNull(CommandLine.parse(new String[] {"serve"}).token());
        assertThrows(ConfigException.class, () -> CommandLine.parse(new String[] {"token"}));
        assertThrows(ConfigException.class, () -> CommandLine.parse(new String[] {"token", "remove"}));
        assertThrows(ConfigException.class, () -> CommandLine.parse(new String[] {"token", "add", "--name"}));
        assertThrows(ConfigException.class, () -> CommandLine.parse(new String[] {"token", "add", "extra"}));
        assertEquals("bob", CommandLine.parse(new String[] {"token", "--config", "/dev/null", "add", "--name", "bob"})
                .token().name(), "the launcher puts --config right after the command");
    }

    @Test
    void firstFreeSkipsTheNamesTaken() {
        assertEquals("caller-1", TokenCommand.firstFree(List.of("alice")));
        assertEquals("caller-3", TokenCommand.firstFree(List.of("caller-1", "caller-2")));
    }
}
