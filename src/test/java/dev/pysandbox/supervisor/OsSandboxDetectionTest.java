package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pysandbox.supervisor.OsSandbox.Host;
import dev.pysandbox.supervisor.OsSandbox.Mode;

/**
 * Where bwrap is looked for, and what the server does with what it finds, on folders of its own and a probe
 * that answers as told: no bwrap is run here (OsSandboxTest runs the real one).
 */
class OsSandboxDetectionTest {
    @TempDir
    Path temp;

    /** Answers each probe by the program it would run (the bwrap's path, or prlimit); records what it ran. */
    private final List<List<String>> probed = new ArrayList<>();

    private OsSandbox.Probe answering(Map<String, String> failures) {
        return command -> {
            probed.add(command);
            String program = command.get(0).equals("env") ? command.get(2) : command.get(0);
            return Optional.ofNullable(failures.get(program));
        };
    }

    private Path home() throws IOException {
        return Files.createDirectories(temp.resolve("home"));
    }

    private Path bundled() throws IOException {
        return executable(home().resolve("bwrap/bwrap"));
    }

    private Path onPath(String folder) throws IOException {
        return executable(temp.resolve(folder).resolve("bwrap"));
    }

    private static Path executable(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private Host linux(String path, Map<String, String> failures) throws IOException {
        return new Host("Linux", home(), path, Files.createDirectories(temp.resolve("proc-sys")), answering(failures));
    }

    private OsSandbox detect(Mode mode, Host host) {
        return OsSandbox.detect(mode, host, temp.resolve("cache"), List.of());
    }

    @Test
    void theBundledBwrapComesFirstWithItsLibrariesAndThenTheFirstOnPath() throws IOException {
        Path bundled = bundled();
        Path first = onPath("a");
        onPath("b");
        List<Bubblewrap> found = Bubblewrap.candidates(home(), temp.resolve("empty") + ":" + first.getParent() + ":"
                + temp.resolve("b"));
        assertEquals(2, found.size(), found.toString());
        assertEquals(List.of("env", "LD_LIBRARY_PATH=" + bundled.resolveSibling("lib"), bundled.toString(),
                "--unsetenv", "LD_LIBRARY_PATH"), found.get(0).command(), "the worker must not inherit the library path");
        assertTrue(found.get(0).bundled());
        assertEquals(List.of(first.toString()), found.get(1).command());
        assertFalse(found.get(1).bundled());
    }

    @Test
    void aFileThatIsNotExecutableIsNoCandidateAndTheBundledOneIsNotTriedTwice() throws IOException {
        Path bundled = bundled();
        Path plain = temp.resolve("plain/bwrap");
        Files.createDirectories(plain.getParent());
        Files.writeString(plain, "not a program");
        assertEquals(List.of(bundled), Bubblewrap.candidates(home(), plain.getParent() + "::" + bundled.getParent())
                .stream().map(Bubblewrap::binary).toList());
        assertEquals(List.of(), Bubblewrap.candidates(temp.resolve("nowhere"), null));
    }

    @Test
    void onLinuxTheBundledBwrapWrapsEachWorkerWithTheResourceLimits() throws IOException {
        Path bundled = bundled();
        Path system = onPath("usr-bin");
        OsSandbox sandbox = detect(Mode.AUTO, linux(system.getParent().toString(), Map.of()));
        List<String> command = sandbox.wrap(List.of("java", "Worker"));
        assertEquals("prlimit", command.get(0));
        assertTrue(command.contains(bundled.toString()), command.toString());
        assertFalse(command.contains(system.toString()), "the one on PATH is not even probed: " + probed);
        assertEquals(List.of("java", "Worker"), command.subList(command.size() - 2, command.size()));
        assertEquals(OsSandbox.CACHE_MOUNT, sandbox.cacheSeenByWorker(temp.resolve("cache")));
        assertEquals(Optional.empty(), sandbox.absence());
        assertEquals(2, probed.size(), "prlimit and the bundled bwrap, each once: " + probed);
        assertEquals(List.of("env", "-i"), probed.get(1).subList(probed.get(1).size() - 2, probed.get(1).size()),
                "bwrap is probed with a trivial command");
    }

    @Test
    void theProbeRunsEnvByItsRealPathSinceAFolderOfLinksInTmpIsHiddenInsideTheLayer() throws IOException {
        Path links = Files.createDirectories(temp.resolve("links"));
        Path env = executable(temp.resolve("usr/bin/env"));
        Files.createSymbolicLink(links.resolve("env"), env);
        assertEquals(List.of(env.toRealPath().toString(), "-i"),
                OsSandbox.trivialCommand(temp.resolve("empty") + ":" + links));
        assertEquals(List.of("env", "-i"), OsSandbox.trivialCommand(null));
    }

    @Test
    void aBundledBwrapThatCannotRunGivesWayToTheOneOnPath() throws IOException {
        Path bundled = bundled();
        Path system = onPath("usr-bin");
        OsSandbox sandbox = detect(Mode.AUTO, linux(system.getParent().toString(),
                Map.of(bundled.toString(), "bwrap: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found")));
        List<String> command = sandbox.wrap(List.of("java"));
        assertTrue(command.contains(system.toString()), command.toString());
        assertFalse(command.contains("LD_LIBRARY_PATH"), command.toString());
    }

    @Test
    void withNoBwrapAtAllTheServerRefusesInOneLineThatSaysHowToFixIt() throws IOException {
        OsSandboxUnavailable refusal = assertThrows(OsSandboxUnavailable.class,
                () -> detect(Mode.AUTO, linux(temp.resolve("empty").toString(), Map.of())));
        String message = refusal.getMessage();
        assertTrue(message.contains("there is no bwrap"), message);
        assertTrue(message.contains("install bubblewrap"), message);
        assertTrue(message.contains("worker.os-sandbox=off"), message);
        assertFalse(message.contains("\n"), message);
    }

    @Test
    void aKernelThatForbidsUserNamespacesIsNamedWithTheSettingThatAllowsThem() throws IOException {
        Path bundled = bundled();
        Host host = linux(null, Map.of(bundled.toString(), "bwrap: setting up uid map: Permission denied"));
        Files.createDirectories(host.procSys().resolve("kernel"));
        Files.writeString(host.procSys().resolve("kernel/apparmor_restrict_unprivileged_userns"), "1\n");
        Files.createDirectories(host.procSys().resolve("user"));
        Files.writeString(host.procSys().resolve("user/max_user_namespaces"), "63000\n");
        String message = assertThrows(OsSandboxUnavailable.class, () -> detect(Mode.REQUIRED, host)).getMessage();
        assertTrue(message.contains(bundled + " (bundled): bwrap: setting up uid map: Permission denied"), message);
        assertTrue(message.contains("sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"), message);
        assertFalse(message.contains("max_user_namespaces"), "a setting that allows them is not named: " + message);
        assertTrue(message.contains("worker.os-sandbox=off"), message);
        assertFalse(message.contains("\n"), message);

        Files.writeString(host.procSys().resolve("kernel/apparmor_restrict_unprivileged_userns"), "0\n");
        Files.writeString(host.procSys().resolve("kernel/unprivileged_userns_clone"), "0\n");
        message = assertThrows(OsSandboxUnavailable.class, () -> detect(Mode.AUTO, host)).getMessage();
        assertTrue(message.contains("sysctl -w kernel.unprivileged_userns_clone=1"), message);
    }

    @Test
    void whereTheKernelAllowsThemAContainerIsTheSuspect() throws IOException {
        Path bundled = bundled();
        String message = assertThrows(OsSandboxUnavailable.class, () -> detect(Mode.AUTO,
                linux(null, Map.of(bundled.toString(), "bwrap: Can't mount proc on /newroot/proc: Operation not permitted"))))
                .getMessage();
        assertTrue(message.contains("Can't mount proc"), message);
        assertTrue(message.contains("a container"), message);
    }

    @Test
    void withoutPrlimitTheLayerIsNotWholeEither() throws IOException {
        bundled();
        String message = assertThrows(OsSandboxUnavailable.class, () -> detect(Mode.AUTO,
                linux(null, Map.of("prlimit", "cannot be started: No such file or directory")))).getMessage();
        assertTrue(message.contains("prlimit"), message);
        assertTrue(message.contains("install util-linux"), message);
    }

    @Test
    void offRunsNothingAndSaysSoToClients() throws IOException {
        OsSandbox sandbox = detect(Mode.OFF, linux(null, Map.of()));
        assertEquals(List.of(), probed);
        assertEquals(List.of("java"), sandbox.wrap(List.of("java")));
        assertEquals(temp.resolve("cache").toString(), sandbox.cacheSeenByWorker(temp.resolve("cache")));
        assertTrue(sandbox.absence().orElseThrow().contains("worker.os-sandbox=off"));
    }

    @Test
    void autoOnAnotherSystemRunsWithoutTheLayerAndSaysSoButRequiredRefuses() throws IOException {
        bundled();
        Host mac = new Host("Mac OS X", home(), null, temp, answering(Map.of()));
        OsSandbox sandbox = detect(Mode.AUTO, mac);
        assertEquals(List.of("java"), sandbox.wrap(List.of("java")));
        assertEquals(Optional.of("not available on Mac OS X, which has no bubblewrap"), sandbox.absence());
        String message = assertThrows(OsSandboxUnavailable.class, () -> detect(Mode.REQUIRED, mac)).getMessage();
        assertTrue(message.contains("Linux's") && message.contains("worker.os-sandbox=auto or off"), message);
        assertEquals(List.of(), probed, "nothing of Linux's is tried there");
    }
}
