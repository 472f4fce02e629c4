package dev.pysandbox.files;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The host's compiled IANA time zone database, which contexts see read-only at
 * {@link SandboxFileSystem#TIME_ZONES}: {@code zoneinfo} then finds the same zones, offsets and names as CPython
 * on the same machine, with nothing to install. A host without one (a minimal container) leaves {@code zoneinfo}
 * the {@code tzdata} package, if the operator installed it.
 */
public final class TimeZones {
    /** Where CPython's {@code zoneinfo} looks on Linux and macOS, in its order. */
    private static final List<Path> PLACES = List.of(Path.of("/usr/share/zoneinfo"), Path.of("/usr/lib/zoneinfo"),
            Path.of("/usr/share/lib/zoneinfo"), Path.of("/etc/zoneinfo"));

    private TimeZones() {
    }

    /** The first of CPython's places that holds a database ({@code UTC} in it), if any. */
    public static Optional<Path> hostDatabase() {
        return PLACES.stream().filter(place -> Files.isRegularFile(place.resolve("UTC"))).findFirst();
    }
}
