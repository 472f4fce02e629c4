package dev.pysandbox.audit;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.pysandbox.execution.ToolCall;

/**
 * One line of the audit log: one call of one of the server's tools, as it ended. The code itself is written
 * only when the operator asks ({@code audit.include-code}); otherwise its SHA-256 and length say which code ran
 * without keeping what it held (a caller may paste secrets into code).
 *
 * @param time          when the call ended, ISO-8601 in UTC
 * @param transport     {@code stdio} or {@code http}
 * @param principal     who called over HTTP ({@code subject@issuer} with OAuth, the tokens file's name, or
 *                      {@code anonymous}); null over stdio
 * @param tool          which of our tools
 * @param language      the code's language; null for a call without code
 * @param sessionId     the session the call named, as the caller named it; null for none
 * @param codeSha256    the SHA-256 of the code's UTF-8 bytes, in hex; null for a call without code
 * @param codeBytes     the code's length in UTF-8 bytes; null for a call without code
 * @param scriptPath    run_python's {@code scriptPath}, when the code came from a file
 * @param status        how the call ended
 * @param durationMs    how long it took, in milliseconds
 * @param toolCalls     the operator's tools its code called (code mode), each with its outcome
 * @param bytesReturned the size of the answer sent back, in bytes of JSON
 * @param code          the code itself, with {@code audit.include-code=true}; null otherwise
 */
@JsonPropertyOrder({"time", "transport", "principal", "tool", "language", "session_id", "code_sha256", "code_bytes",
        "script_path", "status", "duration_ms", "tool_calls", "bytes_returned", "code"})
public record AuditEntry(
        @JsonProperty("time") String time,
        @JsonProperty("transport") String transport,
        @JsonProperty("principal") String principal,
        @JsonProperty("tool") String tool,
        @JsonProperty("language") String language,
        @JsonProperty("session_id") @JsonInclude(JsonInclude.Include.NON_NULL) String sessionId,
        @JsonProperty("code_sha256") String codeSha256,
        @JsonProperty("code_bytes") Integer codeBytes,
        @JsonProperty("script_path") @JsonInclude(JsonInclude.Include.NON_NULL) String scriptPath,
        @JsonProperty("status") String status,
        @JsonProperty("duration_ms") long durationMs,
        @JsonProperty("tool_calls") List<ToolCall> toolCalls,
        @JsonProperty("bytes_returned") long bytesReturned,
        @JsonProperty("code") @JsonInclude(JsonInclude.Include.NON_NULL) String code) {
    public AuditEntry {
        toolCalls = List.copyOf(toolCalls);
    }
}
