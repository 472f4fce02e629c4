package dev.pysandbox.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The Python the worker ships among its resources (the prelude, the warm-up workload), read as text. */
final class GuestSource {
    private GuestSource() {
    }

    /** @param resource a path relative to this package, such as {@code prelude/run.py} */
    static String read(String resource) {
        try (InputStream in = GuestSource.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " missing from the worker's resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }
}
