package dev.pysandbox.files;

/**
 * The caps on a call's scratch files.
 *
 * @param maxBytes    bytes all of a call's (or a session's) files may hold together ({@code files.max-bytes})
 * @param maxCount    files and folders it may create ({@code files.max-count})
 * @param returnBytes content returned with one answer, all files together ({@code files.return-bytes}); a
 *                    file beyond it comes back with its head only, or none, and {@code truncated}
 */
public record FileLimits(long maxBytes, int maxCount, int returnBytes) {
    public static final FileLimits DEFAULT = new FileLimits(64L << 20, 1000, 1 << 20);

    public FileLimits {
        if (maxBytes < 0 || maxCount < 0 || returnBytes < 0) {
            throw new IllegalArgumentException("file limits must not be negative");
        }
    }

    public ScratchSpace newScratchSpace() {
        return new ScratchSpace(maxBytes, maxCount);
    }

    /** The form {@link #parse} reads: {@code maxBytes,maxCount,returnBytes}. */
    public String encode() {
        return maxBytes + "," + maxCount + "," + returnBytes;
    }

    public static FileLimits parse(String encoded) {
        String[] parts = encoded.split(",");
        return new FileLimits(Long.parseLong(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    }
}
