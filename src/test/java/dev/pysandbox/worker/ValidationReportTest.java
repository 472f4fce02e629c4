package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.pysandbox.wire.WireCodec;
import dev.pysandbox.worker.ValidationReport.Problem;

/** validate_code's report crosses from the prelude's JSON to a typed value and back to the answer unchanged. */
class ValidationReportTest {
    @Test
    void aReportReadsAsTypedProblemsAndAnswersAsThePreludeWroteIt() {
        String json = "{\"valid\": false, \"errors\": [{\"line\": 2, \"column\": 1, \"kind\": \"import_not_allowed\","
                + " \"message\": \"import of 'socket' is not allowed\"}, {\"line\": 3, \"column\": 5, \"kind\":"
                + " \"strict_name\", \"message\": \"'eval' is not allowed in the strict sandbox profile\"}],"
                + " \"errors_omitted\": 7}";
        ValidationReport report = ValidationReport.fromJson(json);
        assertEquals(new ValidationReport(false, List.of(
                new Problem(2, 1, "import_not_allowed", "import of 'socket' is not allowed"),
                new Problem(3, 5, "strict_name", "'eval' is not allowed in the strict sandbox profile")), 7), report);
        assertEquals(WireCodec.parseValue(json), report.toWire());
    }

    @Test
    void aValidReportSaysNothingWasOmitted() {
        String json = "{\"valid\": true, \"errors\": []}";
        assertEquals(new ValidationReport(true, List.of(), 0), ValidationReport.fromJson(json));
        assertEquals(WireCodec.parseValue(json), ValidationReport.fromJson(json).toWire());
    }
}
