package dev.pysandbox.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Shape;
import java.awt.image.BufferedImage;
import java.awt.geom.Rectangle2D;

/**
 * Where a figure is drawn, in pixels with the origin at the top left: a PNG's raster ({@link RasterCanvas}) or an
 * SVG document ({@link SvgCanvas}). The painters draw through this alone, so both formats show the same figure.
 */
interface Canvas {
    void fill(Shape shape, Color color);

    void stroke(Shape shape, Color color, BasicStroke stroke);

    /** Text laid out by {@link ChartText}: each line's baseline origin, turned by its rotation about the anchor. */
    void text(ChartText.Placed text, Color color);

    /** A raster stretched over {@code target}, without smoothing, as {@code imshow} draws a heat map. */
    void image(BufferedImage image, Rectangle2D target);

    /** Draws only inside {@code clip} from now on; null to draw anywhere. */
    void clip(Shape clip);
}
