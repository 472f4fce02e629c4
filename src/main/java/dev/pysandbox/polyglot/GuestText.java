package dev.pysandbox.polyglot;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The guest code the worker ships among its resources (Python's prelude, JavaScript's runtime), read as text. */
public final class GuestText {
    private GuestText() {
    }

    /** @param resource a path relative to {@code anchor}'s package, such as {@code prelude/run.py} */
    public static String read(Class<?> anchor, String resource) {
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " missing from the worker's resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }
}
