package dev.pysandbox.worker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.pysandbox.wire.WireCodec;

/**
 * {@code validate_code}'s answer ({@link GuestRunner#validate}): whether the code would pass, and what would
 * fail, at most 100 problems with their messages cut to 300 characters (the prelude bounds them).
 *
 * @param valid         whether nothing was found
 * @param errors        what was found, by line and column
 * @param errorsOmitted how many more were found than {@code errors} lists
 */
record ValidationReport(boolean valid, List<Problem> errors, int errorsOmitted) {
    ValidationReport {
        errors = List.copyOf(errors);
    }

    /**
     * One problem.
     *
     * @param kind syntax, import_not_allowed, strict_name, unknown_tool, tool_not_allowed, non_json_param or
     *             await_tool_call
     */
    record Problem(int line, int column, String kind, String message) {
    }

    /** The report the prelude wrote as JSON text. */
    @SuppressWarnings("unchecked")
    static ValidationReport fromJson(String json) {
        Map<String, Object> report = (Map<String, Object>) WireCodec.parseValue(json);
        List<Problem> problems = new ArrayList<>();
        for (Object entry : (List<Object>) report.get("errors")) {
            Map<String, Object> problem = (Map<String, Object>) entry;
            problems.add(new Problem(((Number) problem.get("line")).intValue(),
                    ((Number) problem.get("column")).intValue(), (String) problem.get("kind"),
                    (String) problem.get("message")));
        }
        Object omitted = report.get("errors_omitted");
        return new ValidationReport((Boolean) report.get("valid"), problems,
                omitted == null ? 0 : ((Number) omitted).intValue());
    }

    /** The report as the call's {@code result}: {@code {valid, errors, errors_omitted?}}, as validate_code answers. */
    Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("valid", valid);
        List<Map<String, Object>> shown = new ArrayList<>();
        for (Problem problem : errors) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("line", problem.line());
            entry.put("column", problem.column());
            entry.put("kind", problem.kind());
            entry.put("message", problem.message());
            shown.add(entry);
        }
        wire.put("errors", shown);
        if (errorsOmitted > 0) {
            wire.put("errors_omitted", errorsOmitted);
        }
        return wire;
    }
}
