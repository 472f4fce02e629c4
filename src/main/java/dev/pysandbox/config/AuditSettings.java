package dev.pysandbox.config;

import java.nio.file.Path;

/**
 * The audit log ({@code audit.*}; README, "Audit log"): one JSON line per call of the server's tools, who made
 * it and what came of it, for the operator.
 *
 * @param enabled      {@code audit.log} is set
 * @param file         where the lines go, rotated by size; null for stderr ({@code audit.log=stderr})
 * @param includeCode  {@code audit.include-code}: the code itself too, not only its digest and length
 * @param maxFileBytes {@code audit.max-file-bytes}: the file is rotated past this size
 * @param maxFiles     {@code audit.max-files}: rotated files kept besides the current one; older ones are deleted
 */
public record AuditSettings(boolean enabled, Path file, boolean includeCode, long maxFileBytes, int maxFiles) {
    public static final AuditSettings OFF = new AuditSettings(false, null, false, 0, 0);
}
