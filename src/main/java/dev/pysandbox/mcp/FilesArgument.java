package dev.pysandbox.mcp;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.pysandbox.files.FileLimits;
import dev.pysandbox.files.FileName;
import dev.pysandbox.mcp.CallArguments.InvalidArgument;

/**
 * {@code execute_code}'s {@code files}: text or base64 content by relative path, checked here so that the
 * caller hears which file is wrong, and nothing runs with half of its files.
 */
final class FilesArgument {
    private FilesArgument() {
    }

    /** The files by name, as bytes; empty when the argument is absent. */
    static Map<String, byte[]> parse(Object raw, FileLimits limits) throws InvalidArgument {
        if (raw == null) {
            return Map.of();
        }
        if (!(raw instanceof Map<?, ?> entries)) {
            throw new InvalidArgument("Argument 'files' must be an object of file names to contents.");
        }
        if (entries.size() > limits.maxCount()) {
            throw new InvalidArgument("Argument 'files' has " + entries.size() + " files; the limit is "
                    + limits.maxCount() + " (setting files.max-count).");
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        long total = 0;
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
            String name = String.valueOf(entry.getKey());
            try {
                FileName.inWorkingDirectory(name);
            } catch (IllegalArgumentException e) {
                throw new InvalidArgument("Argument 'files': " + e.getMessage() + ".");
            }
            byte[] content = content(name, entry.getValue());
            total += content.length;
            if (total > limits.maxBytes()) {
                throw new InvalidArgument("Argument 'files' holds more than " + limits.maxBytes()
                        + " bytes (setting files.max-bytes).");
            }
            files.put(name, content);
        }
        for (String name : files.keySet()) {
            for (String other : files.keySet()) {
                if (other.startsWith(name + "/")) {
                    throw new InvalidArgument("Argument 'files': '" + name + "' is a file and also the folder of '"
                            + other + "'.");
                }
            }
        }
        return files;
    }

    private static byte[] content(String name, Object value) throws InvalidArgument {
        if (value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (value instanceof Map<?, ?> object && object.size() == 1 && object.get("base64") instanceof String encoded) {
            try {
                return Base64.getDecoder().decode(encoded.replaceAll("\\s", ""));
            } catch (IllegalArgumentException e) {
                throw new InvalidArgument("Argument 'files': the base64 of '" + name + "' is not valid base64.");
            }
        }
        throw new InvalidArgument("Argument 'files': '" + name + "' must be a string or {\"base64\": \"...\"}.");
    }
}
