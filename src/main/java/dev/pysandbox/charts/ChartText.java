package dev.pysandbox.charts;

import java.awt.Font;
import java.awt.FontFormatException;
import java.awt.font.FontRenderContext;
import java.awt.font.LineMetrics;
import java.awt.geom.AffineTransform;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Text on a figure: the font, how much room a text takes, and where its lines go for a given anchor, alignment
 * and rotation. One measure serves the layout (how much room titles and tick labels need) and both canvases.
 *
 * <p>The face is DejaVu Sans, matplotlib's default, read from the worker's own jar: a worker's file system shows it
 * no system fonts, and the look must not depend on the host's.
 */
final class ChartText {
    /** matplotlib's {@code linespacing}: a line of a multi-line text takes 1.2 times the font's height. */
    private static final double LINE_SPACING = 1.2;
    private static final FontRenderContext MEASURE = new FontRenderContext(null, true, true);
    private static final Font REGULAR = load("DejaVuSans.ttf");
    private static final Font BOLD = load("DejaVuSans-Bold.ttf");

    private ChartText() {
    }

    private static Font load(String file) {
        try (InputStream in = ChartText.class.getResourceAsStream("fonts/" + file)) {
            if (in != null) {
                return Font.createFont(Font.TRUETYPE_FONT, in);
            }
        } catch (IOException | FontFormatException e) {
            // fall through: the JDK's own sans-serif face, where the host has one
        }
        return new Font(Font.SANS_SERIF, file.contains("Bold") ? Font.BOLD : Font.PLAIN, 1);
    }

    /** The face at {@code pixels} pixels. */
    static Font font(double pixels, boolean bold) {
        return (bold ? BOLD : REGULAR).deriveFont((float) Math.max(1, pixels));
    }

    static FontRenderContext measure() {
        return MEASURE;
    }

    /** Horizontal alignment of a text's box on its anchor, matplotlib's {@code ha}. */
    enum Align {
        LEFT, CENTER, RIGHT;

        static Align named(String name) {
            return name == null ? CENTER : switch (name) {
                case "left" -> LEFT;
                case "right" -> RIGHT;
                default -> CENTER;
            };
        }
    }

    /** Vertical alignment, matplotlib's {@code va}. */
    enum VAlign {
        TOP, CENTER, BOTTOM, BASELINE;

        static VAlign named(String name) {
            return name == null ? CENTER : switch (name) {
                case "top" -> TOP;
                case "bottom" -> BOTTOM;
                case "baseline" -> BASELINE;
                default -> CENTER;
            };
        }
    }

    /**
     * A text placed on the figure: its font, its lines with each one's baseline origin in the text's own frame,
     * the transform from that frame to the figure (a shift and a rotation), and its box on the figure.
     */
    record Placed(Font font, List<String> lines, List<Point2D> origins, AffineTransform transform, Rectangle2D bounds) {
    }

    /**
     * {@code text} anchored at {@code (x, y)}: its box, turned {@code rotation} degrees anticlockwise, is aligned on
     * the anchor as matplotlib aligns a rotated text's box ({@code rotation_mode='default'}).
     */
    static Placed place(String text, Font font, double x, double y, Align align, VAlign valign, double rotation) {
        List<String> lines = List.of(text.split("\n", -1));
        LineMetrics metrics = font.getLineMetrics("Ag", MEASURE);
        double ascent = metrics.getAscent();
        double height = ascent + metrics.getDescent();
        double[] widths = new double[lines.size()];
        double width = 0;
        for (int i = 0; i < lines.size(); i++) {
            widths[i] = lines.get(i).isEmpty() ? 0 : font.getStringBounds(lines.get(i), MEASURE).getWidth();
            width = Math.max(width, widths[i]);
        }
        double blockHeight = height + (lines.size() - 1) * height * LINE_SPACING;
        List<Point2D> origins = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            double left = switch (align) {
                case LEFT -> 0;
                case CENTER -> (width - widths[i]) / 2;
                case RIGHT -> width - widths[i];
            };
            origins.add(new Point2D.Double(left, ascent + i * height * LINE_SPACING));
        }
        AffineTransform turn = AffineTransform.getRotateInstance(-Math.toRadians(rotation));
        Rectangle2D turned = turn.createTransformedShape(new Rectangle2D.Double(0, 0, width, blockHeight)).getBounds2D();
        double dx = switch (align) {
            case LEFT -> x - turned.getMinX();
            case CENTER -> x - turned.getCenterX();
            case RIGHT -> x - turned.getMaxX();
        };
        double dy = switch (valign) {
            case TOP -> y - turned.getMinY();
            case CENTER -> y - turned.getCenterY();
            case BOTTOM -> y - turned.getMaxY();
            case BASELINE -> y - turn.transform(new Point2D.Double(0, ascent + (lines.size() - 1) * height
                    * LINE_SPACING), null).getY();
        };
        AffineTransform transform = AffineTransform.getTranslateInstance(dx, dy);
        transform.concatenate(turn);
        Rectangle2D bounds = new Rectangle2D.Double(turned.getX() + dx, turned.getY() + dy, turned.getWidth(),
                turned.getHeight());
        return new Placed(font, lines, origins, transform, bounds);
    }
}
