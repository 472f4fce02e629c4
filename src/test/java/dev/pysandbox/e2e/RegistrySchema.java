package dev.pysandbox.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Assumptions;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/**
 * The MCP registry's published JSON schema for {@code server.json}, the one its {@code "$schema"} names. The
 * registry publishes it on the web only, and the file is the registry's, so it is not copied into this repository:
 * it comes from {@code -Dregistry.schema=FILE}, else from its address (downloaded once into {@code target/tools/}).
 * Where neither can be had (CI machines reach Maven Central, Debian and npm only), the check is skipped and says why.
 */
record RegistrySchema(Schema schema, String source) {
    private static final Path DOWNLOADS = SandboxServer.PROJECT_ROOT.resolve("target/tools/registry-schemas");

    /** The schema at {@code address}, or the test is skipped with the reason it could not be had. */
    static RegistrySchema atOrSkip(String address) {
        String given = System.getProperty("registry.schema", "");
        try {
            if (!given.isBlank()) {
                return parse(Files.readString(Path.of(given)), given);
            }
            // .../schemas/2025-12-11/server.schema.json is kept as 2025-12-11/server.schema.json
            String[] parts = URI.create(address).getPath().split("/");
            Path kept = DOWNLOADS.resolve(parts[parts.length - 2]).resolve(parts[parts.length - 1]);
            if (!Files.isRegularFile(kept)) {
                String text = download(address);
                Files.createDirectories(kept.getParent());
                Files.writeString(kept, text);
            }
            return parse(Files.readString(kept), address + " (kept in " + kept + ")");
        } catch (IOException | RuntimeException e) {
            String why = "the registry's schema " + (given.isBlank() ? address : given) + " could not be had from"
                    + " this machine (" + e + "); give a copy with -Dregistry.schema=FILE";
            System.err.println("[registry schema] skipped: " + why); // the build's log shows no skip's reason
            Assumptions.abort(why);
            throw new AssertionError("unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
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

    private static String download(String address) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(address))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode());
        }
        return response.body();
    }
}
