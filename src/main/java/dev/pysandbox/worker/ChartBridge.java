package dev.pysandbox.worker;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import dev.pysandbox.charts.ChartFormat;
import dev.pysandbox.charts.ChartLimits;
import dev.pysandbox.charts.FigureRenderer;
import dev.pysandbox.charts.Picture;
import dev.pysandbox.execution.AnswerBudget;
import dev.pysandbox.execution.ChartImage;
import dev.pysandbox.wire.WireCodec;

/**
 * The one door from the guest's {@code matplotlib} to the renderer ({@code charts/}): the prelude hands it over as
 * the module {@code _sandbox_charts}, called {@code charts(op, figure_json, format, dpi, name)}. It draws in this
 * worker, on the call's own thread, so that a figure's time counts within the call's timeout and its interrupt stops
 * the drawing; it keeps what the call drew for the call's answer. Like {@link ToolBridge} it reads only strings and
 * numbers from the guest and never throws into it: every answer is JSON, {@code {"ok": true, ...}} or
 * {@code {"ok": false, "error": ...}}.
 *
 * <p>Operations: {@code limits} (the {@link ChartLimits}, for the guest to refuse early), {@code save} (the figure's
 * bytes in base64, for {@code savefig}; also kept as an image), {@code show} (kept as an image only).
 */
final class ChartBridge implements ProxyExecutable {
    /** How many figures the guest may keep open at once ({@code plt.figure}): matplotlib warns at 20. */
    static final int MAX_OPEN_FIGURES = 100;

    private final FigureRenderer renderer;
    private final ChartLimits limits;
    /** The largest PNG an answer carries: {@link AnswerBudget#IMAGE_BYTES}, smaller in tests. */
    private final int maxImageBytes;
    private final List<ChartImage> images = new ArrayList<>();
    private int renders;
    private int imageBytes;
    private int omitted;
    private volatile long deadlineNanos;
    private volatile boolean open;

    ChartBridge(ChartLimits limits) {
        this(limits, AnswerBudget.IMAGE_BYTES);
    }

    ChartBridge(ChartLimits limits, int maxImageBytes) {
        this.limits = limits;
        this.renderer = new FigureRenderer(limits);
        this.maxImageBytes = maxImageBytes;
    }

    /** A call begins that may draw until {@code deadlineNanos} ({@link System#nanoTime}). */
    synchronized void begin(long deadlineNanos) {
        images.clear();
        renders = 0;
        imageBytes = 0;
        omitted = 0;
        this.deadlineNanos = deadlineNanos;
        open = true;
    }

    /** The call ended: what it drew for its answer, and how many images were left out of it. */
    synchronized Drawn end() {
        open = false;
        Drawn drawn = new Drawn(List.copyOf(images), omitted);
        images.clear();
        return drawn;
    }

    /** The images a call drew for its answer, and how many more it drew than the answer may carry. */
    record Drawn(List<ChartImage> images, int omitted) {
    }

    @Override
    public Object execute(Value... arguments) {
        if (arguments.length != 5 || !arguments[0].isString() || !arguments[1].isString() || !arguments[2].isString()
                || !arguments[3].isNumber() || !arguments[4].isString()) {
            return failed("the chart bridge takes (op, figure_json, format, dpi, name)");
        }
        String op = arguments[0].asString();
        if (op.equals("limits")) {
            return WireCodec.encode(new LimitsReply(true, limits.maxPoints(), limits.maxPixels(), MAX_OPEN_FIGURES,
                    limits.maxRenders()));
        }
        if (!op.equals("save") && !op.equals("show")) {
            return failed("unknown request: the chart bridge takes limits, save or show");
        }
        if (!open) {
            return failed("figures can be drawn only while the call that draws them runs");
        }
        if (arguments[1].asString().length() > limits.maxSpecChars()) {
            return failed("the figure's description is more than " + limits.maxSpecChars() + " characters; plot"
                    + " fewer points");
        }
        Optional<ChartFormat> format = ChartFormat.named(arguments[2].asString());
        if (format.isEmpty()) {
            return failed("savefig writes png or svg here");
        }
        synchronized (this) {
            if (++renders > limits.maxRenders()) {
                return failed("this call drew more than " + limits.maxRenders() + " figures, the most one call may"
                        + " draw here; draw fewer, or combine them as subplots of one figure");
            }
        }
        String json = arguments[1].asString();
        double dpi = arguments[3].asDouble();
        String name = arguments[4].asString();
        name = name.length() > 200 ? name.substring(0, 200) : name;
        return switch (renderer.render(json, format.get(), dpi, deadlineNanos)) {
            case FigureRenderer.Rendering.Refused refused -> failed(refused.reason());
            case FigureRenderer.Rendering.Drawn drawn -> {
                keepForAnswer(json, drawn.picture(), name, dpi);
                yield op.equals("save")
                        ? WireCodec.encode(new SaveReply(true, Base64.getEncoder().encodeToString(drawn.picture().bytes()),
                                drawn.picture().width(), drawn.picture().height()))
                        : WireCodec.encode(new SaveReply(true, null, drawn.picture().width(), drawn.picture().height()));
            }
        };
    }

    /**
     * Keeps the figure as a PNG for the answer: the picture itself when it is a PNG small enough, else drawn again
     * as PNG, at a lower dpi until it fits {@link AnswerBudget#IMAGE_BYTES} (BENCHMARKS.md, "Charts").
     */
    private void keepForAnswer(String json, Picture picture, String name, double dpi) {
        synchronized (this) {
            if (images.size() >= AnswerBudget.IMAGES) {
                omitted++;
                return;
            }
        }
        Picture png = picture;
        double scale = 1.0;
        for (int attempt = 0; attempt < 4 && (png.format() != ChartFormat.PNG || png.bytes().length > maxImageBytes);
                attempt++) {
            if (png.format() == ChartFormat.PNG) {
                scale *= Math.max(0.25, 0.9 * Math.sqrt((double) maxImageBytes / png.bytes().length));
            }
            double at = (dpi > 0 ? dpi : 100) * scale;
            if (!(renderer.render(json, ChartFormat.PNG, Math.max(10, at), deadlineNanos)
                    instanceof FigureRenderer.Rendering.Drawn drawn)) {
                return;
            }
            png = drawn.picture();
        }
        String imageName = name.toLowerCase(Locale.ROOT).endsWith(".png") ? name : stem(name) + ".png";
        synchronized (this) {
            if (png.bytes().length > maxImageBytes || imageBytes + png.bytes().length > AnswerBudget.IMAGES_BYTES) {
                omitted++;
                return;
            }
            imageBytes += png.bytes().length;
            images.add(new ChartImage(imageName, ChartFormat.PNG.mimeType(), png.width(), png.height(),
                    png.bytes().length, Base64.getEncoder().encodeToString(png.bytes())));
        }
    }

    private static String stem(String name) {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static String failed(String message) {
        return WireCodec.encode(new Failure(false, message));
    }

    private record Failure(boolean ok, String error) {
    }

    private record SaveReply(boolean ok, String data, int width, int height) {
    }

    private record LimitsReply(boolean ok, long max_points, long max_pixels, int max_figures, int max_renders) {
    }
}
