package dev.pysandbox.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;

import io.modelcontextprotocol.json.McpJsonMapper;

import dev.pysandbox.audit.AuditEntry;
import dev.pysandbox.audit.AuditLog;
import dev.pysandbox.config.AuditSettings;
import dev.pysandbox.execution.TextDigest;

/**
 * The audit log's view of a call (README, "Audit log"): who, which tool and language, which code (by digest and
 * length), how it ended, how long it took, which of the operator's tools its code called, and how much came back.
 */
final class AuditTrail implements CallObserver {
    private final AuditLog log;
    private final McpJsonMapper json;

    AuditTrail(AuditLog log, McpJsonMapper json) {
        this.log = log;
        this.json = json;
    }

    /** The observer that writes to {@code log}; none when the audit log is off (null). */
    static CallObserver of(AuditLog log, McpJsonMapper json) {
        return log == null ? CallObserver.NONE : new AuditTrail(log, json);
    }

    /** The audit log the configuration names; null when it is off. */
    static AuditLog open(AuditSettings settings, McpJsonMapper json) {
        return settings.enabled() ? AuditLog.open(settings, json) : null;
    }

    @Override
    public void ended(EndedCall call) {
        log.write(entry(call, Instant.now()));
    }

    AuditEntry entry(EndedCall call, Instant now) {
        // run_python's scriptPath wins over its code: then the code in the arguments did not run.
        String scriptPath = RunPythonTool.NAME.equals(call.tool()) && call.arguments().get("scriptPath") instanceof String path
                ? path : null;
        String code = scriptPath == null && call.arguments().get("code") instanceof String text ? text : null;
        Integer codeBytes = code == null ? null : code.getBytes(StandardCharsets.UTF_8).length;
        ToolAnswer answer = call.answer();
        return new AuditEntry(now.truncatedTo(ChronoUnit.MILLIS).toString(),
                call.caller().principal() == null ? "stdio" : "http",
                call.caller().principal() == null ? null : call.caller().principal().name(),
                call.tool(),
                answer.language() == null ? null : answer.language().wireName(),
                call.arguments().get("session_id") instanceof String id ? id : null,
                code == null ? null : HexFormat.of().formatHex(TextDigest.sha256(code)),
                codeBytes,
                scriptPath,
                answer.status().wireName(),
                call.elapsed().toMillis(),
                answer.toolCalls(),
                answerBytes(answer),
                log.includesCode() ? code : null);
    }

    private long answerBytes(ToolAnswer answer) {
        try {
            return json.writeValueAsBytes(answer.result()).length;
        } catch (IOException e) {
            return -1;
        }
    }
}
