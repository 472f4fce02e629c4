package dev.pysandbox.charts;

import java.util.Locale;

import dev.pysandbox.charts.FigureSpec.AxesSpec;

/**
 * Holds a figure's description to the {@link ChartLimits} before any of it is drawn: a figure over a limit is
 * refused whole, with a message that names the limit and what to do, never drawn in part.
 */
final class FigureCheck {
    /** The dpi range matplotlib itself draws sensibly at; beyond it a figure is a mistake or an attack. */
    static final double MIN_DPI = 10;
    static final double MAX_DPI = 2400;

    private FigureCheck() {
    }

    /**
     * The picture's size in pixels at {@code dpi}.
     *
     * @throws RenderRefused when the figure is over a limit
     */
    static int[] check(FigureSpec spec, double dpi, ChartLimits limits) {
        if (!(spec.width() > 0) || !(spec.height() > 0) || !Double.isFinite(spec.width())
                || !Double.isFinite(spec.height())) {
            throw new RenderRefused("the figure size must be positive and finite, not " + number(spec.width()) + " x "
                    + number(spec.height()) + " inches");
        }
        if (!(dpi >= MIN_DPI && dpi <= MAX_DPI)) {
            throw new RenderRefused("dpi must be between " + (int) MIN_DPI + " and " + (int) MAX_DPI + ", not "
                    + number(dpi));
        }
        double width = Math.rint(spec.width() * dpi);
        double height = Math.rint(spec.height() * dpi);
        if (width * height > limits.maxPixels()) {
            throw new RenderRefused(String.format(Locale.ROOT, "the figure would be %.0f x %.0f pixels, more than the"
                    + " %,d pixels a figure may have here; use a smaller figsize or dpi", width, height,
                    limits.maxPixels()));
        }
        if (spec.axes().size() > limits.maxAxes()) {
            throw new RenderRefused("the figure has " + spec.axes().size() + " axes, more than the " + limits.maxAxes()
                    + " a figure may have here");
        }
        long points = 0;
        for (AxesSpec axes : spec.axes()) {
            if (axes.x() == null || axes.y() == null) {
                throw new RenderRefused("an axes of the figure has no x or y axis");
            }
            for (Artist artist : axes.artists()) {
                points += artist.points();
            }
            points += axes.x().ticks().size() + axes.y().ticks().size();
        }
        if (points > limits.maxPoints()) {
            throw new RenderRefused(String.format(Locale.ROOT, "the figure has %,d points, more than the %,d a figure"
                    + " may draw here; plot fewer points (every n-th, or an aggregate such as a histogram)", points,
                    limits.maxPoints()));
        }
        return new int[] {(int) Math.max(1, width), (int) Math.max(1, height)};
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }
}
