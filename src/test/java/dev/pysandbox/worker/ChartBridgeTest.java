package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.execution.ChartImage;
import dev.pysandbox.execution.Language;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.files.FileLimits;
import dev.pysandbox.wire.WorkerCommand;

/** The worker's side of charts: the guest's matplotlib, drawn through the bridge, comes back in the call's report. */
class ChartBridgeTest {
    private static final WorkerSettings SETTINGS = new WorkerSettings(65_536, 1_048_576, 1, 500,
            ImportPolicy.standard(), false, List.of(), "", FileLimits.DEFAULT, List.of(), 0);
    private static final ToolBridge TOOLS = new ToolBridge(event -> { });
    private static final ChartBridge CHARTS = new ChartBridge(ChartLimits.DEFAULT);
    private static SandboxContexts contexts;
    private static ScheduledExecutorService watchdog;

    @BeforeAll
    static void start() {
        contexts = new SandboxContexts(SETTINGS, Optional::empty, TOOLS, CHARTS);
        watchdog = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    static void close() {
        watchdog.shutdownNow();
        contexts.close();
    }

    private static RunReport run(String code) throws Exception {
        CompletableFuture<RunReport> answer = new CompletableFuture<>();
        SandboxContexts.PreparedContext prepared = contexts.prepare(false);
        WorkerCommand.Execute command = new WorkerCommand.Execute(1, Language.PYTHON, code, "", 60_000, null, "<string>", null, null,
                null);
        new GuestCall(prepared, command, SETTINGS, watchdog, TOOLS, CHARTS,
                (result, recycle) -> answer.complete(result)).run();
        prepared.streams().detach();
        prepared.context().close(true);
        return answer.get(60, TimeUnit.SECONDS);
    }

    private static BufferedImage picture(ChartImage image) throws Exception {
        return ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(image.base64())));
    }

    @Test
    void aSavedFigureIsAScratchFileAndAnImageOfTheAnswer() throws Exception {
        RunReport report = run("""
                import matplotlib
                matplotlib.use('Agg')
                import matplotlib.pyplot as plt
                plt.plot([0, 10], [5, 5], 'r-', linewidth=4)
                plt.savefig('line.png')
                """);
        assertEquals(Status.SUCCESS, report.status(), report::toString);
        assertEquals(1, report.images().size(), report::toString);
        ChartImage image = report.images().get(0);
        assertEquals("line.png", image.name());
        assertEquals(640, image.width());
        assertTrue(report.files().stream().anyMatch(file -> file.path().equals("line.png")), report::toString);
        BufferedImage drawn = picture(image);
        // y=5 is the middle of the axes box (57.6 to 427.2 down), where the red line is.
        assertEquals(0xff0000, drawn.getRGB(320, 242) & 0xffffff, () -> Integer.toHexString(drawn.getRGB(320, 242)));
    }

    @Test
    void aFigureLeftOpenComesBackAsAnImage() throws Exception {
        RunReport report = run("""
                import matplotlib.pyplot as plt
                fig, ax = plt.subplots()
                ax.bar(['a', 'b'], [1, 2])
                """);
        assertEquals(Status.SUCCESS, report.status(), report::toString);
        assertEquals(List.of("figure-1.png"), report.images().stream().map(ChartImage::name).toList());
        assertTrue(report.files().isEmpty());
    }

    @Test
    void attackAFigureOverThePixelLimitIsAClearErrorAndItsFileIsNotWritten() throws Exception {
        RunReport report = run("""
                import matplotlib.pyplot as plt
                plt.plot([1, 2, 3])
                plt.savefig('huge.png', dpi=2000)
                """);
        assertEquals(Status.EXECUTION_ERROR, report.status(), report::toString);
        assertTrue(report.errorMessage().contains("pixels a figure may have here"), report::errorMessage);
        assertFalse(report.files().stream().anyMatch(file -> file.path().equals("huge.png")));
        // The figure is still open when the code ends, so it comes back as drawn at its own size.
        assertEquals(List.of("figure-1.png"), report.images().stream().map(ChartImage::name).toList());
        assertEquals(640, report.images().get(0).width());
    }

    @Test
    void aPngOverTheImageLimitIsDrawnAgainSmallerForTheAnswerWhileTheSavedFileKeepsItsSize() throws Exception {
        // The same rule as at AnswerBudget.IMAGE_BYTES, with a limit a plain chart exceeds.
        ChartBridge small = new ChartBridge(ChartLimits.DEFAULT, 8_000);
        SandboxContexts.PreparedContext prepared;
        try (SandboxContexts own = new SandboxContexts(SETTINGS, Optional::empty, TOOLS, small)) {
            prepared = own.prepare(false);
            CompletableFuture<RunReport> answer = new CompletableFuture<>();
            WorkerCommand.Execute command = new WorkerCommand.Execute(1, Language.PYTHON, """
                    import os
                    import matplotlib.pyplot as plt
                    plt.plot([1, 3, 2, 5, 4], 'o-', label='a')
                    plt.title('a chart over the limit')
                    plt.legend()
                    plt.savefig('big.png')
                    print(os.path.getsize('big.png'))
                    """, "", 60_000, null, "<string>", null, null, null);
            new GuestCall(prepared, command, SETTINGS, watchdog, TOOLS, small,
                    (result, recycle) -> answer.complete(result)).run();
            RunReport report = answer.get(60, TimeUnit.SECONDS);
            assertEquals(Status.SUCCESS, report.status(), report::toString);
            long saved = Long.parseLong(report.stdout().strip());
            assertTrue(saved > 8_000, "the saved PNG is over the limit: " + saved);
            ChartImage image = report.images().get(0);
            assertTrue(image.size() <= 8_000, image::toString);
            assertTrue(image.width() < 640, "drawn again at a lower dpi: " + image.width());
            assertEquals(image.width(), picture(image).getWidth());
        }
    }
}
