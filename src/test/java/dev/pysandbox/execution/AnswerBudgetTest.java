package dev.pysandbox.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Every field guest code can fill is held to its part of one budget, and the budget bounds the answer. */
class AnswerBudgetTest {
    private static final AnswerBudget DEFAULTS = AnswerBudget.of(51_200, 1_048_576);

    private static RunReport failed(String stdout, String stderr, String message, Object result) {
        return new RunReport(Status.EXECUTION_ERROR, stdout, stderr, 1, 0.5, message, result, Truncation.NONE);
    }

    @Test
    void aResultWithinTheBudgetComesBackEqual() {
        RunReport report = new RunReport(Status.EXECUTION_ERROR, "out\n", "Traceback ...\n", 1, 0.5, "ValueError: x",
                Map.of("a", List.of(1, 2)), Truncation.NONE, List.of(), 0, List.of("yaml"))
                .withFiles(List.of(new OutputFile("a.txt", 2, "hi", null, false)), 5);
        assertEquals(report, DEFAULTS.bound(report));
        assertEquals(DEFAULTS.bound(report), DEFAULTS.bound(DEFAULTS.bound(report)));
        List<ToolCall> calls = List.of(new ToolCall("srv.tool", true, 3, null));
        ExecutionResult answer = ExecutionResult.from(report).toolCalls(calls, 0).installing(List.of("yaml")).build();
        assertEquals(calls, answer.toolCalls());
        assertEquals(List.of("yaml"), answer.installing());
    }

    @Test
    void attackAFortyMegabyteExceptionMessageIsCutToALineAPersonReads() {
        RunReport bounded = DEFAULTS.bound(failed("", "", "Exception: " + "x".repeat(40_000_000), null));
        assertTrue(bounded.errorMessage().length() <= AnswerBudget.ERROR_MESSAGE_CHARS, () -> "" + bounded.errorMessage().length());
        assertTrue(bounded.errorMessage().startsWith("Exception: xxx"));
        assertTrue(bounded.errorMessage().endsWith("[cut at 4096 characters]"), bounded.errorMessage()::toString);
        assertTrue(bounded.truncated().errorMessage());
        assertFalse(bounded.truncated().stdout());
    }

    @Test
    void attackAStreamLongerThanTheCaptureKeepsItsHeadAndTail() {
        String flood = "H" + "y".repeat(3_000_000) + "T";
        RunReport bounded = DEFAULTS.bound(failed(flood, "", null, null));
        assertTrue(bounded.stdout().length() <= DEFAULTS.streamChars());
        assertTrue(bounded.stdout().startsWith("Hyy") && bounded.stdout().endsWith("yyT"));
        assertTrue(bounded.stdout().contains("characters omitted"));
        assertTrue(bounded.truncated().stdout());
    }

    @Test
    void attackAHugeResultIsCutToItsBudgetAsJson() {
        // Quotes double in JSON: the cut counts what the value takes there, not its characters.
        RunReport bounded = DEFAULTS.bound(failed("", "", null, "\"".repeat(1_000_000)));
        String value = (String) bounded.result();
        assertTrue(JsonSize.of(value) + 2 <= DEFAULTS.resultChars(), () -> "" + JsonSize.of(value));
        assertTrue(bounded.truncated().result());
        List<Object> structure = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            structure.add(Map.of("k", i));
        }
        RunReport cut = DEFAULTS.bound(failed("", "", null, structure));
        assertTrue(cut.result() instanceof String s && s.startsWith("[{\"k\":0}"), () -> "" + cut.result());
        assertTrue(cut.truncated().result());
    }

    @Test
    void attackTwentyFilesWithHundredThousandCharacterNamesAreNotListedInFull() {
        List<OutputFile> files = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            files.add(new OutputFile(i + "x".repeat(100_000), 1, "a", null, false));
        }
        RunReport bounded = DEFAULTS.bound(failed("", "", null, null).withFiles(files, 0));
        assertEquals(2, bounded.files().size(), "two 100 KB names fit the 256 KB listing");
        assertEquals(18, bounded.filesOmitted());
        assertTrue(bounded.truncated().files());
    }

    @Test
    void attackControlCharactersInAFileCountAsTheSixBytesJsonMakesOfEach() {
        String text = "\u0001".repeat(1_000_000);
        RunReport bounded = DEFAULTS.bound(failed("", "", null, null)
                .withFiles(List.of(new OutputFile("a.txt", text.length(), text, null, false)), 0));
        OutputFile file = bounded.files().get(0);
        assertEquals(DEFAULTS.fileBytes() / 6, file.text().length());
        assertTrue(file.truncated() && bounded.truncated().files());
        OutputFile binary = DEFAULTS.bound(failed("", "", null, null).withFiles(List.of(
                new OutputFile("b.bin", 3_000_000, null, "QUJD".repeat(1_000_000), false)), 0)).files().get(0);
        assertEquals(DEFAULTS.fileBytes() / 4 * 4, binary.base64().length(), "whole groups of four");
    }

    @Test
    void attackManyToolCallsWithHugeNamesAreListedAHundredAtMostWithShortNames() {
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            calls.add(new ToolCall("s." + "t".repeat(100_000), false, 1, ToolErrorKind.NOT_ALLOWED));
        }
        ExecutionResult bounded = ExecutionResult.from(DEFAULTS.bound(failed("", "", null, null))).toolCalls(calls, 7)
                .build();
        assertEquals(AnswerBudget.TOOL_CALLS, bounded.toolCalls().size());
        assertEquals(57, bounded.toolCallsOmitted());
        assertTrue(bounded.toolCalls().stream().allMatch(call -> call.tool().length() <= AnswerBudget.TOOL_NAME_CHARS));
    }

    @Test
    void attackAReportsCountsAndTimeAreHeldToWhatTheAnswerPromises() {
        RunReport told = new RunReport(Status.SUCCESS, "", "", 0, Double.POSITIVE_INFINITY, null, null, Truncation.NONE,
                List.of(), -5, List.of());
        RunReport bounded = DEFAULTS.bound(told);
        assertEquals(0, bounded.filesOmitted(), "no fewer than none");
        assertEquals(0.0, bounded.executionTime(), "a time JSON can carry as a number");
        RunReport many = new RunReport(Status.SUCCESS, "", "", 0, -1, null, null, Truncation.NONE,
                List.of(new OutputFile("x".repeat(300_000), 1, "a", null, false)), Integer.MAX_VALUE, List.of());
        assertEquals(Integer.MAX_VALUE, DEFAULTS.bound(many).filesOmitted(), "no overflow");
        assertEquals(0.0, DEFAULTS.bound(many).executionTime());
    }

    @Test
    void theDefaultsAllowNoAnswerLargerThanClientsRead() {
        long largest = DEFAULTS.largestAnswerBytes();
        assertTrue(largest <= AnswerBudget.CLIENT_MESSAGE_BYTES, () -> largest + " bytes");
        assertTrue(AnswerBudget.of(8 * 1024 * 1024, 1_048_576).largestAnswerBytes() > AnswerBudget.CLIENT_MESSAGE_BYTES,
                "an 8 MB capture must be refused, or the check could not fail");
    }

    private static ChartImage png(String name, int bytes) {
        // base64 of the PNG signature, then filler: the budget looks at the type, the signature and the length.
        String data = "iVBORw0KGgo" + "A".repeat(Math.max(0, (bytes + 2) / 3 * 4 - 11));
        return new ChartImage(name, "image/png", 640, 480, bytes, data);
    }

    @Test
    void imagesWithinTheBudgetComeBackEqualAndTheAnswerListsThemWithoutTheirBytes() {
        RunReport report = failed("", "", null, null).withImages(List.of(png("a.png", 40_000)), 0);
        assertEquals(report, DEFAULTS.bound(report));
        ExecutionResult answer = ExecutionResult.from(report).build();
        assertEquals(List.of(new ChartImage.ImageListing("a.png", "image/png", 640, 480, 40_000)),
                answer.imageListings());
    }

    @Test
    void attackAWorkerCannotSendAnImageThatIsNotAPng() {
        ChartImage svg = new ChartImage("x.svg", "image/svg+xml", 1, 1, 40, "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+");
        ChartImage claimsPng = new ChartImage("x.png", "image/png", 1, 1, 40, "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+");
        RunReport bounded = DEFAULTS.bound(failed("", "", null, null).withImages(List.of(svg, claimsPng), 0));
        assertTrue(bounded.images().isEmpty(), bounded::toString);
        assertEquals(2, bounded.imagesOmitted());
    }

    @Test
    void attackImagesBeyondTheCountOrTheBytesAreLeftOutAndCounted() {
        List<ChartImage> many = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            many.add(png("f" + i + ".png", 10_000));
        }
        RunReport counted = DEFAULTS.bound(failed("", "", null, null).withImages(many, 3));
        assertEquals(AnswerBudget.IMAGES, counted.images().size());
        assertEquals(20 - AnswerBudget.IMAGES + 3, counted.imagesOmitted());
        List<ChartImage> large = List.of(png("a.png", 900_000), png("b.png", 900_000), png("c.png", 900_000),
                png("huge.png", AnswerBudget.IMAGE_BYTES + 1));
        RunReport weighed = DEFAULTS.bound(failed("", "", null, null).withImages(large, 0));
        assertEquals(List.of("a.png", "b.png"), weighed.images().stream().map(ChartImage::name).toList());
        assertEquals(2, weighed.imagesOmitted());
    }
}
