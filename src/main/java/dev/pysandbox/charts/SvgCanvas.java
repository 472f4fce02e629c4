package dev.pysandbox.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Shape;
import java.awt.font.GlyphVector;
import java.awt.geom.Path2D;
import java.awt.geom.PathIterator;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

import javax.imageio.ImageIO;

/**
 * A figure as an SVG document. Text is drawn as the outlines of its glyphs, as matplotlib's SVG backend does by
 * default ({@code svg.fonttype='path'}), so that it looks the same where DejaVu Sans is not installed.
 */
final class SvgCanvas implements Canvas {
    private final StringBuilder svg = new StringBuilder();
    private int clips;
    private boolean clipped;

    /**
     * @param width  the picture's width in pixels, its height likewise
     * @param points how wide it is on paper in points (the {@code width} attribute), its height likewise
     */
    SvgCanvas(int width, int height, double widthPoints, double heightPoints, double shiftX, double shiftY) {
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(number(widthPoints))
                .append("pt\" height=\"").append(number(heightPoints)).append("pt\" viewBox=\"0 0 ").append(width)
                .append(' ').append(height).append("\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n")
                .append("<g transform=\"translate(").append(number(shiftX)).append(' ').append(number(shiftY))
                .append(")\">\n");
    }

    @Override
    public void fill(Shape shape, Color color) {
        svg.append("<path d=\"").append(path(shape)).append('"').append(paint("fill", color)).append("/>\n");
    }

    @Override
    public void stroke(Shape shape, Color color, BasicStroke stroke) {
        svg.append("<path d=\"").append(path(shape)).append("\" fill=\"none\"").append(paint("stroke", color))
                .append(" stroke-width=\"").append(number(stroke.getLineWidth())).append('"');
        float[] dash = stroke.getDashArray();
        if (dash != null) {
            svg.append(" stroke-dasharray=\"");
            for (int i = 0; i < dash.length; i++) {
                svg.append(i == 0 ? "" : ",").append(number(dash[i]));
            }
            svg.append('"');
        }
        svg.append(" stroke-linejoin=\"").append(stroke.getLineJoin() == BasicStroke.JOIN_ROUND ? "round" : "miter")
                .append("\" stroke-linecap=\"").append(switch (stroke.getEndCap()) {
                    case BasicStroke.CAP_ROUND -> "round";
                    case BasicStroke.CAP_SQUARE -> "square";
                    default -> "butt";
                }).append("\"/>\n");
    }

    @Override
    public void text(ChartText.Placed text, Color color) {
        Path2D.Double outlines = new Path2D.Double();
        for (int i = 0; i < text.lines().size(); i++) {
            Point2D origin = text.origins().get(i);
            GlyphVector glyphs = text.font().createGlyphVector(ChartText.measure(), text.lines().get(i));
            outlines.append(glyphs.getOutline((float) origin.getX(), (float) origin.getY()), false);
        }
        fill(text.transform().createTransformedShape(outlines), color);
    }

    @Override
    public void image(BufferedImage image, Rectangle2D target) {
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", png);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        svg.append("<image x=\"").append(number(target.getX())).append("\" y=\"").append(number(target.getY()))
                .append("\" width=\"").append(number(target.getWidth())).append("\" height=\"")
                .append(number(target.getHeight())).append("\" preserveAspectRatio=\"none\"")
                .append(" style=\"image-rendering:pixelated\" href=\"data:image/png;base64,")
                .append(Base64.getEncoder().encodeToString(png.toByteArray())).append("\"/>\n");
    }

    @Override
    public void clip(Shape clip) {
        if (clipped) {
            svg.append("</g>\n");
            clipped = false;
        }
        if (clip != null) {
            clips++;
            svg.append("<clipPath id=\"c").append(clips).append("\"><path d=\"").append(path(clip))
                    .append("\"/></clipPath>\n<g clip-path=\"url(#c").append(clips).append(")\">\n");
            clipped = true;
        }
    }

    byte[] document() {
        clip(null);
        svg.append("</g>\n</svg>\n");
        return svg.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String paint(String attribute, Color color) {
        String value = String.format(Locale.ROOT, " %s=\"#%02x%02x%02x\"", attribute, color.getRed(), color.getGreen(),
                color.getBlue());
        return color.getAlpha() == 255 ? value
                : value + " " + attribute + "-opacity=\"" + number(color.getAlpha() / 255.0) + "\"";
    }

    private static String path(Shape shape) {
        StringBuilder d = new StringBuilder();
        double[] c = new double[6];
        for (PathIterator it = shape.getPathIterator(null); !it.isDone(); it.next()) {
            switch (it.currentSegment(c)) {
                case PathIterator.SEG_MOVETO -> d.append('M').append(number(c[0])).append(' ').append(number(c[1]));
                case PathIterator.SEG_LINETO -> d.append('L').append(number(c[0])).append(' ').append(number(c[1]));
                case PathIterator.SEG_QUADTO -> d.append('Q').append(number(c[0])).append(' ').append(number(c[1]))
                        .append(' ').append(number(c[2])).append(' ').append(number(c[3]));
                case PathIterator.SEG_CUBICTO -> d.append('C').append(number(c[0])).append(' ').append(number(c[1]))
                        .append(' ').append(number(c[2])).append(' ').append(number(c[3])).append(' ')
                        .append(number(c[4])).append(' ').append(number(c[5]));
                case PathIterator.SEG_CLOSE -> d.append('Z');
                default -> {
                }
            }
        }
        return d.toString();
    }

    private static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%.2f", value).replaceAll("0+$", "");
    }
}
