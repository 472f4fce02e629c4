package dev.pysandbox.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.pysandbox.charts.ChartText.Placed;
import dev.pysandbox.charts.FigureSpec.AxesSpec;
import dev.pysandbox.charts.FigureSpec.AxisSpec;
import dev.pysandbox.charts.FigureSpec.Grid;
import dev.pysandbox.charts.FigureSpec.Tick;

/**
 * Draws a figure the guest described ({@link FigureSpec}, as JSON) as a PNG or an SVG. It runs in the worker, on the
 * call's own thread, never in the server: the description comes from guest code. Every way a description can fail
 * (not JSON, not a figure, over a limit, stopped) comes back as {@link Rendering.Refused} with words for the user.
 */
public final class FigureRenderer {
    /** {@code savefig(bbox_inches='tight')}'s {@code pad_inches}. */
    private static final double CROP_PAD_INCHES = 0.1;
    private static final JsonMapper JSON = JsonMapper.builder()
            // Python's json writes NaN and Infinity, which matplotlib's data may hold: a NaN breaks a line.
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    private final ChartLimits limits;

    public FigureRenderer(ChartLimits limits) {
        this.limits = limits;
    }

    public ChartLimits limits() {
        return limits;
    }

    /** A figure drawn, or why it was not. */
    public sealed interface Rendering {
        record Drawn(Picture picture) implements Rendering {
        }

        record Refused(String reason) implements Rendering {
        }
    }

    /**
     * The figure {@code json} describes, drawn at {@code dpi} (its own when not positive).
     *
     * @param deadlineNanos when the drawing must stop ({@link System#nanoTime}); an interrupt of this thread stops it too
     */
    public Rendering render(String json, ChartFormat format, double dpi, long deadlineNanos) {
        if (json.length() > limits.maxSpecChars()) {
            return new Rendering.Refused("the figure's description is " + json.length() + " characters, more than the "
                    + limits.maxSpecChars() + " a figure may take here; plot fewer points");
        }
        FigureSpec spec;
        try {
            spec = JSON.readValue(json, FigureSpec.class);
        } catch (JacksonException e) {
            return new Rendering.Refused("the figure's description could not be read: " + e.getOriginalMessage());
        }
        try {
            return new Rendering.Drawn(draw(spec, format, dpi > 0 ? dpi : spec.dpi(), Interrupts.until(deadlineNanos)));
        } catch (RenderRefused e) {
            return new Rendering.Refused(e.getMessage());
        } catch (OutOfMemoryError e) {
            return new Rendering.Refused("the figure did not fit in the worker's memory; use a smaller figsize or dpi");
        }
    }

    private Picture draw(FigureSpec spec, ChartFormat format, double dpi, Interrupts interrupts) {
        int[] size = FigureCheck.check(spec, dpi, limits);
        double width = size[0];
        double height = size[1];
        double pt = dpi / 72;
        List<AxesGeometry> placed = FigureLayout.place(spec, width, height, pt);
        List<Decorations> decorations = new ArrayList<>();
        List<LegendBox> legends = new ArrayList<>();
        for (AxesGeometry axes : placed) {
            interrupts.check();
            decorations.add(Decorations.of(axes, pt));
            legends.add(LegendBox.place(axes, pt));
        }
        Placed suptitle = FigureLayout.suptitle(spec, width, height, pt);
        Rectangle2D page = new Rectangle2D.Double(0, 0, width, height);
        if (spec.layout().crop()) {
            page = drawn(placed, decorations, legends, suptitle, page);
            double pad = CROP_PAD_INCHES * dpi;
            page = new Rectangle2D.Double(page.getX() - pad, page.getY() - pad, page.getWidth() + 2 * pad,
                    page.getHeight() + 2 * pad);
            if (page.getWidth() * page.getHeight() > limits.maxPixels()) {
                throw new RenderRefused("the figure cut to what it draws would have more than the " + limits.maxPixels()
                        + " pixels a figure may have here");
            }
        }
        int pageWidth = (int) Math.max(1, Math.ceil(page.getWidth()));
        int pageHeight = (int) Math.max(1, Math.ceil(page.getHeight()));
        Canvas canvas = format == ChartFormat.PNG
                ? new RasterCanvas(pageWidth, pageHeight, -page.getX(), -page.getY())
                : new SvgCanvas(pageWidth, pageHeight, pageWidth / pt, pageHeight / pt, -page.getX(), -page.getY());
        canvas.fill(new Rectangle2D.Double(page.getX(), page.getY(), page.getWidth(), page.getHeight()),
                Colors.parse(spec.facecolor(), Color.WHITE));
        for (int i = 0; i < placed.size(); i++) {
            interrupts.check();
            paintAxes(canvas, placed.get(i), decorations.get(i), legends.get(i), pt, interrupts);
        }
        if (suptitle != null) {
            canvas.text(suptitle, Colors.parse(spec.suptitle().color(), Color.BLACK));
        }
        byte[] bytes = canvas instanceof RasterCanvas raster ? raster.png() : ((SvgCanvas) canvas).document();
        return new Picture(format, bytes, pageWidth, pageHeight);
    }

    /** The part of the page that anything is drawn on, for {@code bbox_inches='tight'}. */
    private static Rectangle2D drawn(List<AxesGeometry> placed, List<Decorations> decorations, List<LegendBox> legends,
            Placed suptitle, Rectangle2D page) {
        Rectangle2D used = null;
        for (int i = 0; i < placed.size(); i++) {
            Rectangle2D box = placed.get(i).box();
            if (placed.get(i).colorbar() != null) {
                box = box.createUnion(placed.get(i).colorbar());
            }
            Rectangle2D text = decorations.get(i).bounds();
            if (text != null) {
                box = box.createUnion(text);
            }
            if (legends.get(i) != null) {
                box = box.createUnion(legends.get(i).bounds());
            }
            used = used == null ? box : used.createUnion(box);
        }
        if (suptitle != null) {
            used = used == null ? suptitle.bounds() : used.createUnion(suptitle.bounds());
        }
        return used == null ? page : used;
    }

    private static void paintAxes(Canvas canvas, AxesGeometry at, Decorations decorations, LegendBox legend,
            double pt, Interrupts interrupts) {
        AxesSpec spec = at.spec();
        Rectangle2D box = at.box();
        boolean twin = spec.twinOf() >= 0;
        if (spec.visible() && !twin) {
            canvas.fill(box, Colors.parse(spec.facecolor(), Color.WHITE));
        }
        if (spec.visible() && spec.grid() != null) {
            grid(canvas, at, spec.grid(), pt);
        }
        ArtistPainter artists = new ArtistPainter(at, canvas, pt);
        canvas.clip(box);
        artists.paintClipped(interrupts);
        canvas.clip(null);
        BasicStroke thin = new BasicStroke((float) (Decorations.TICK_WIDTH * pt), BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER);
        if (spec.visible()) {
            for (String side : spec.spines()) {
                Line2D spine = switch (side) {
                    case "left" -> new Line2D.Double(box.getMinX(), box.getMinY(), box.getMinX(), box.getMaxY());
                    case "right" -> new Line2D.Double(box.getMaxX(), box.getMinY(), box.getMaxX(), box.getMaxY());
                    case "top" -> new Line2D.Double(box.getMinX(), box.getMinY(), box.getMaxX(), box.getMinY());
                    case "bottom" -> new Line2D.Double(box.getMinX(), box.getMaxY(), box.getMaxX(), box.getMaxY());
                    default -> null;
                };
                if (spine != null) {
                    canvas.stroke(spine, Color.BLACK, new BasicStroke((float) (Decorations.TICK_WIDTH * pt),
                            BasicStroke.CAP_SQUARE, BasicStroke.JOIN_MITER));
                }
            }
        }
        for (Line2D tick : decorations.ticks) {
            canvas.stroke(tick, Color.BLACK, thin);
        }
        for (Decorations.Text text : decorations.texts) {
            canvas.text(text.placed(), text.color());
        }
        artists.paintUnclipped();
        if (at.colorbar() != null && spec.colorbar() != null && !spec.colorbar().colors().isEmpty()) {
            List<String> colors = spec.colorbar().colors();
            BufferedImage ramp = new BufferedImage(1, colors.size(), BufferedImage.TYPE_INT_RGB);
            for (int i = 0; i < colors.size(); i++) {
                ramp.setRGB(0, colors.size() - 1 - i, Colors.parse(colors.get(i), Color.BLACK).getRGB());
            }
            canvas.image(ramp, at.colorbar());
            canvas.stroke(at.colorbar(), Color.BLACK, thin);
        }
        if (legend != null) {
            legend.paint(canvas);
        }
    }

    private static void grid(Canvas canvas, AxesGeometry at, Grid grid, double pt) {
        Color color = Colors.parse(grid.color(), new Color(0xb0, 0xb0, 0xb0));
        BasicStroke stroke = ArtistPainter.stroke(grid.width() > 0 ? grid.width() : 0.8, grid.dash(), pt);
        Rectangle2D box = at.box();
        if (grid.x()) {
            for (Tick tick : within(at.spec().x())) {
                double x = at.px(tick.at());
                canvas.stroke(new Line2D.Double(x, box.getMinY(), x, box.getMaxY()), color, stroke);
            }
        }
        if (grid.y()) {
            for (Tick tick : within(at.spec().y())) {
                double y = at.py(tick.at());
                canvas.stroke(new Line2D.Double(box.getMinX(), y, box.getMaxX(), y), color, stroke);
            }
        }
    }

    private static List<Tick> within(AxisSpec axis) {
        double low = Math.min(axis.low(), axis.high());
        double high = Math.max(axis.low(), axis.high());
        return axis.ticks().stream().filter(t -> t.at() >= low && t.at() <= high).toList();
    }
}
