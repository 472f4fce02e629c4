package dev.pysandbox.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

class UserDirectoriesTest {
    @Test
    void homeIsTheEnvironmentsNotThePasswordDatabases() {
        UserDirectories user = UserDirectories.of(Map.of("HOME", "/work/alice"), "/root");
        assertEquals(Path.of("/work/alice"), user.home());
        assertEquals(Path.of("/work/alice/.cache"), user.cache());
        assertEquals(Path.of("/work/alice/.local/share"), user.data());
        assertEquals(Path.of("/work/alice/.config"), user.config());
    }

    @Test
    void xdgFoldersWinWhereSet() {
        UserDirectories user = UserDirectories.of(Map.of("HOME", "/home/a", "XDG_CACHE_HOME", "/var/cache/a",
                "XDG_DATA_HOME", "/data/a", "XDG_CONFIG_HOME", "/etc/a"), "/root");
        assertEquals(Path.of("/var/cache/a"), user.cache());
        assertEquals(Path.of("/data/a"), user.data());
        assertEquals(Path.of("/etc/a"), user.config());
    }

    @Test
    void unsetEmptyOrRelativeValuesFallBack() {
        UserDirectories user = UserDirectories.of(Map.of("HOME", "", "XDG_CACHE_HOME", "relative/cache"), "/home/b");
        assertEquals(Path.of("/home/b"), user.home());
        assertEquals(Path.of("/home/b/.cache"), user.cache());
        assertEquals(Path.of("/home/b"), UserDirectories.of(Map.of(), "/home/b").home());
    }
}
