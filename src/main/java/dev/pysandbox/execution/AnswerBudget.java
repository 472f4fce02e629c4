package dev.pysandbox.execution;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.json.JsonMapper;

/**
 * One budget for the whole answer: how much of each field that guest code can fill an answer may carry, and
 * from that the largest answer a client can be sent (SECURITY.md, "Every answer is bounded").
 *
 * <p>The worker applies it to its {@link RunReport} before it writes it, so an honest worker's line stays small;
 * the supervisor applies it again to the report it reads, because a worker is not trusted ({@link #bound} leaves a
 * report that is already within the budget as it is). The lists only the supervisor fills (tool calls, modules
 * installing) are held to it as the answer is built ({@link ExecutionResult.Builder}). What a field lost is said in
 * {@code truncated}, and files left out of the listing are counted in {@code files_omitted}.
 *
 * @param streamChars UTF-16 units of stdout and of stderr each: {@code output.capture-bytes}, plus room for the
 *                    marker the worker puts between the head and tail it keeps
 * @param resultChars UTF-16 units of {@code result} as JSON text ({@code output.capture-bytes})
 * @param fileBytes   bytes the files' contents take in the answer's JSON, escaped text or base64
 *                    ({@code files.return-bytes})
 */
public record AnswerBudget(int streamChars, int resultChars, int fileBytes) {
    /** {@code error_message} is one line a person reads; a 40 MB exception message is an attack, not a report. */
    public static final int ERROR_MESSAGE_CHARS = 4096;
    /** The files' paths and the entries that hold them, in JSON bytes: room for a thousand 200-byte paths. */
    public static final int FILE_LISTING_BYTES = 256 * 1024;
    /** What each listed file is charged besides its path, so that empty names cannot list without end. */
    public static final int FILE_ENTRY_BYTES = 64;
    /** Tool calls a result lists (code mode); more are counted in {@code tool_calls_omitted}. */
    public static final int TOOL_CALLS = 100;
    /** A tool's qualified name as recorded: MCP names a tool in at most 128 characters, a server in fewer. */
    public static final int TOOL_NAME_CHARS = 256;
    /** The error kind of a recorded tool call: the longest ToolErrorKind wire name is shorter. */
    public static final int TOOL_ERROR_CHARS = 32;
    /** Modules named in {@code installing}, and the length of each name. */
    public static final int INSTALLING = 32;
    public static final int MODULE_NAME_CHARS = 128;
    /**
     * The largest message MCP's TypeScript SDK client reads over stdio (its ReadBuffer refuses more, and the
     * connection is lost for every later call); the settings may not allow an answer larger than this.
     */
    public static final long CLIENT_MESSAGE_BYTES = 10L * 1024 * 1024;
    /**
     * Figures an answer carries as images (charts), the bytes of each, and of all together: enough for a dashboard
     * of charts, each a PNG of 20 to 100 KB at matplotlib's 100 dpi (BENCHMARKS.md, "Charts"). A larger figure is
     * drawn again at a lower dpi to fit; beyond the count or the total, figures are counted in
     * {@code images_omitted}.
     */
    public static final int IMAGES = 8;
    public static final int IMAGE_BYTES = 1024 * 1024;
    public static final int IMAGES_BYTES = 2 * 1024 * 1024;
    /** An image's name as listed: the file name its code saved it under. */
    public static final int IMAGE_NAME_CHARS = 200;
    /** The only type of image an answer carries, and how its base64 begins (the PNG signature). */
    static final String IMAGE_TYPE = "image/png";
    static final String PNG_BASE64_START = "iVBORw0KGgo";

    /** A result whose JSON is at most this large is repeated whole in the answer's text block. */
    public static final int TEXT_IN_FULL_BYTES = 128 * 1024;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Room for the marker between the head and tail of a cut stream, {@code "... [N bytes omitted] ..."}. */
    static final int MARKER_CHARS = 64;

    /** The budget the settings {@code output.capture-bytes} and {@code files.return-bytes} give. */
    public static AnswerBudget of(int captureBytes, int returnBytes) {
        return new AnswerBudget(captureBytes + MARKER_CHARS, captureBytes, returnBytes);
    }

    /**
     * The report within this budget; one that is within it already comes back equal. Whatever a worker sent, what
     * comes back is no larger than the budget allows, and its counts are counts (no fewer than none, time no less
     * than none), as the answer's schema promises clients.
     */
    public RunReport bound(RunReport r) {
        Cut stdout = headAndTail(r.stdout(), streamChars);
        Cut stderr = headAndTail(r.stderr(), streamChars);
        Cut message = head(r.errorMessage(), ERROR_MESSAGE_CHARS);
        BoundValue result = boundResult(r.result());
        FileListing files = files(r.files());
        List<String> missing = listedModules(r.missingModules());
        Truncation was = r.truncated();
        Truncation truncated = new Truncation(was.stdout() || stdout.cut(), was.stderr() || stderr.cut(),
                was.result() || result.cut(), was.errorMessage() || message.cut(), was.files() || files.cut());
        double seconds = Double.isFinite(r.executionTime()) ? Math.max(0, r.executionTime()) : 0;
        int omitted = (int) Math.min(Integer.MAX_VALUE, Math.max(0L, r.filesOmitted()) + files.omitted());
        List<ChartImage> images = images(r.images());
        int imagesOmitted = (int) Math.min(Integer.MAX_VALUE, Math.max(0L, r.imagesOmitted())
                + r.images().size() - images.size());
        return new RunReport(r.status(), stdout.text(), stderr.text(), r.exitCode(), seconds, message.text(),
                result.value(), truncated, files.files(), omitted, missing, images, imagesOmitted);
    }

    /**
     * The images an answer may carry: PNGs only (a worker is not trusted, and a client shows an image block as the
     * type it names), the first {@link #IMAGES}, each within {@link #IMAGE_BYTES} and all within
     * {@link #IMAGES_BYTES}; the others are left out, and counted by the caller.
     */
    static List<ChartImage> images(List<ChartImage> images) {
        List<ChartImage> kept = new ArrayList<>();
        long room = base64Length(IMAGES_BYTES);
        for (ChartImage image : images) {
            String data = image.base64();
            if (kept.size() == IMAGES || !IMAGE_TYPE.equals(image.mimeType()) || data == null
                    || !data.startsWith(PNG_BASE64_START) || data.length() > base64Length(IMAGE_BYTES)
                    || data.length() > room) {
                continue;
            }
            room -= data.length();
            String name = image.name() == null ? "figure.png" : head(image.name(), IMAGE_NAME_CHARS).text();
            kept.add(new ChartImage(name, IMAGE_TYPE, Math.max(0, image.width()), Math.max(0, image.height()),
                    Math.max(0, image.size()), data));
        }
        return kept;
    }

    private static long base64Length(long bytes) {
        return (bytes + 2) / 3 * 4;
    }

    /** The tool calls an answer lists: the first {@link #TOOL_CALLS}, each name cut to {@link #TOOL_NAME_CHARS}. */
    static List<ToolCall> listed(List<ToolCall> calls) {
        List<ToolCall> listed = new ArrayList<>();
        for (ToolCall call : calls.subList(0, Math.min(TOOL_CALLS, calls.size()))) {
            listed.add(new ToolCall(head(call.tool(), TOOL_NAME_CHARS).text(), call.ok(), call.durationMs(),
                    call.error()));
        }
        return listed;
    }

    /** The module names an answer lists: the first {@link #INSTALLING}, each cut to {@link #MODULE_NAME_CHARS}. */
    static List<String> listedModules(List<String> modules) {
        return modules.stream().limit(INSTALLING).map(module -> head(module, MODULE_NAME_CHARS).text()).toList();
    }

    /**
     * The files a result may list: each is charged {@link #FILE_ENTRY_BYTES} and its path against
     * {@link #FILE_LISTING_BYTES} (one that does not fit is left out and counted), and its content against
     * {@code fileBytes}, spent in order (a file beyond it shows its head and {@code truncated}).
     */
    public FileListing files(List<OutputFile> files) {
        long listing = FILE_LISTING_BYTES;
        long content = fileBytes;
        List<OutputFile> kept = new ArrayList<>();
        int omitted = 0;
        for (OutputFile file : files) {
            long entry = FILE_ENTRY_BYTES + JsonSize.of(file.path());
            if (entry > listing) {
                omitted++;
                continue;
            }
            listing -= entry;
            OutputFile shown = file;
            if (file.text() != null) {
                int end = JsonSize.prefixWithin(file.text(), content);
                if (end < file.text().length()) {
                    shown = new OutputFile(file.path(), file.size(), file.text().substring(0, end), null, true);
                }
                content -= JsonSize.of(shown.text());
            } else if (file.base64() != null) {
                if (file.base64().length() > content) {
                    // Whole groups of four, so that what is shown still decodes.
                    int end = (int) (content / 4 * 4);
                    shown = new OutputFile(file.path(), file.size(), null, file.base64().substring(0, end), true);
                }
                content -= shown.base64().length();
            }
            kept.add(shown);
        }
        return new FileListing(kept, omitted);
    }

    /** What {@link #files} keeps of a listing, and how many files it left out. */
    public record FileListing(List<OutputFile> files, int omitted) {
        boolean cut() {
            return omitted > 0 || files.stream().anyMatch(OutputFile::truncated);
        }
    }

    /**
     * The most bytes an answer of these settings can take as one JSON-RPC message. An answer carries its result
     * as {@code structuredContent}, again as its text block (whole while its JSON is at most
     * {@link #TEXT_IN_FULL_BYTES}, else without the files' contents), and each file's content once more as an
     * embedded resource. The count is of the worst text: a control character takes 6 bytes of JSON, and 7 in
     * the text block, which is JSON inside JSON.
     */
    public long largestAnswerBytes() {
        long streams = 2L * streamChars + ERROR_MESSAGE_CHARS;
        long toolCalls = TOOL_CALLS * (7L * (TOOL_NAME_CHARS + TOOL_ERROR_CHARS) + 96);
        long installing = INSTALLING * (7L * MODULE_NAME_CHARS + 8);
        long entries = FILE_LISTING_BYTES / FILE_ENTRY_BYTES;
        long fixed = 2048;
        // JSON text costs at most 3 bytes a unit (a character beyond ASCII); as a string in JSON, `"` costs 2.
        long structured = 6 * streams + 3L * resultChars + toolCalls + installing
                + fileBytes + FILE_LISTING_BYTES + fixed;
        long text = Math.max(2L * TEXT_IN_FULL_BYTES,
                7 * streams + 3L * resultChars + toolCalls + installing + 2L * FILE_LISTING_BYTES + fixed);
        // Each resource repeats its path in a URI and names a MIME type: 160 bytes an entry is ample.
        long resources = fileBytes + FILE_LISTING_BYTES + entries * 160;
        // Images: their bytes once, in image blocks; their listing in the structured content and the text.
        long images = base64Length(IMAGES_BYTES) + IMAGES * (64 + 3L * (7L * IMAGE_NAME_CHARS + 160));
        return structured + text + resources + images + fixed;
    }

    private record Cut(String text, boolean cut) {
    }

    private record BoundValue(Object value, boolean cut) {
    }

    private static Cut head(String text, int limit) {
        if (text == null || text.length() <= limit) {
            return new Cut(text, false);
        }
        // No count of what was cut: the worker may have cut a huge text before this saw it.
        String marker = " ... [cut at " + limit + " characters]";
        return new Cut(text.substring(0, safeEnd(text, limit - marker.length())) + marker, true);
    }

    /** The head and tail of a text longer than the limit, as the worker keeps an output stream. */
    private static Cut headAndTail(String text, int limit) {
        if (text.length() <= limit) {
            return new Cut(text, false);
        }
        int keep = (limit - MARKER_CHARS) / 2;
        int headEnd = safeEnd(text, keep);
        int tailStart = text.length() - keep;
        if (Character.isLowSurrogate(text.charAt(tailStart))) {
            tailStart++;
        }
        String marker = "\n... [" + (tailStart - headEnd) + " characters omitted] ...\n";
        return new Cut(text.substring(0, headEnd) + marker + text.substring(tailStart), true);
    }

    /** The result if its JSON is within {@code resultChars}; else the head of that JSON, as a string. */
    private BoundValue boundResult(Object value) {
        if (value == null) {
            return new BoundValue(null, false);
        }
        String json = JSON.writeValueAsString(value);
        if (json.length() <= resultChars) {
            return new BoundValue(value, false);
        }
        String text = value instanceof String s ? s : json;
        // Escapes make the string's JSON longer than the string: cut by the JSON size, within resultChars.
        return new BoundValue(text.substring(0, JsonSize.prefixWithin(text, resultChars - 2)), true);
    }

    private static int safeEnd(String text, int end) {
        int at = Math.max(0, Math.min(end, text.length()));
        return at > 0 && at < text.length() && Character.isHighSurrogate(text.charAt(at - 1)) ? at - 1 : at;
    }
}
