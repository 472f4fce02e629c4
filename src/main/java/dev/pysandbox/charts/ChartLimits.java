package dev.pysandbox.charts;

/**
 * How much drawing one call may ask of its worker. Each limit refuses with a message naming it and what to do; the
 * guest's {@code matplotlib} reads them ({@code limits} on the bridge) to refuse early, before it spends the call's
 * time describing a figure that would be refused, but the renderer is what holds them.
 *
 * @param maxPixels       pixels in one picture (width times height at its dpi)
 * @param maxPoints       points, bars, wedges and image cells in one figure
 * @param maxAxes         axes in one figure
 * @param maxRenders      pictures drawn in one call ({@code savefig}, {@code show}, and the figures left open)
 * @param maxSpecChars    characters of one figure's description, as the guest hands it over
 */
public record ChartLimits(long maxPixels, long maxPoints, int maxAxes, int maxRenders, int maxSpecChars) {
    /**
     * 16 megapixels is a 4000 x 4000 picture, 64 MB of raster in the worker's heap; a quarter of a million points
     * is more than a chart shows distinctly, and takes the guest about a second to describe.
     */
    public static final ChartLimits DEFAULT = new ChartLimits(16_000_000, 250_000, 256, 50, 24 * 1024 * 1024);
}
