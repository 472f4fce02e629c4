package dev.pysandbox.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/**
 * A JSON schema that {@code server.json} must meet. Every run has the project's transcription of the MCP registry's
 * documented rules for server.json 2025-12-11 (src/test/resources/registry/, whose README says where each rule is
 * documented and why the registry's own file is not in the repository); the registry's published schema is checked
 * as well when a copy is given with {@code -Dregistry.schema=FILE}. Nothing is downloaded: CI machines reach Maven
 * Central, Debian and npm only, and the check must run there too.
 */
record RegistrySchema(Schema schema, String source) {
    private static final String TRANSCRIPTION = "registry/server.schema.2025-12-11.json";

    /** The schemas this run checks against: the transcription, then the published schema when one is given. */
    static List<RegistrySchema> forThisRun() throws IOException {
        List<RegistrySchema> schemas = new ArrayList<>();
        try (InputStream in = RegistrySchema.class.getClassLoader().getResourceAsStream(TRANSCRIPTION)) {
            if (in == null) {
                throw new IOException(TRANSCRIPTION + " is not on the test class path");
            }
            schemas.add(parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "the project's transcription of"
                    + " the registry's documented rules (src/test/resources/" + TRANSCRIPTION + ")"));
        }
        String given = System.getProperty("registry.schema", "");
        if (!given.isBlank()) {
            schemas.add(parse(Files.readString(Path.of(given)), "the registry's published schema (" + given + ")"));
        }
        return schemas;
    }

    /** What the schema finds wrong with {@code json}: nothing when it is valid. */
    List<String> errorsIn(String json) {
        return schema.validate(json, InputFormat.JSON).stream().map(Error::toString).toList();
    }

    private static RegistrySchema parse(String text, String source) {
        // Its own "$schema" (draft-07) chooses the dialect; draft 7 is the default only for a schema that names none.
        return new RegistrySchema(SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                .getSchema(text, InputFormat.JSON), source);
    }
}
