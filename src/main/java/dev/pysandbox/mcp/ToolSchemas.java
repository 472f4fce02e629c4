package dev.pysandbox.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Tool schemas live as JSON files beside this class, readable as they are sent. Limits that come from
 * configuration appear in them as {@code ${name}} and are filled in here.
 */
final class ToolSchemas {
    private ToolSchemas() {
    }

    static String load(String resource, Map<String, String> values) {
        String text;
        try (InputStream in = ToolSchemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema " + resource + " is missing from the build");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read schema " + resource, e);
        }
        for (Map.Entry<String, String> entry : values.entrySet()) {
            text = text.replace("${" + entry.getKey() + "}", entry.getValue());
        }
        if (text.contains("${")) {
            throw new IllegalStateException("schema " + resource + " has an unfilled placeholder");
        }
        return text;
    }
}
