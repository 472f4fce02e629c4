package dev.pysandbox.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import javax.imageio.ImageIO;

/** A figure drawn antialiased into an RGB raster, written as PNG. */
final class RasterCanvas implements Canvas {
    private final BufferedImage raster;
    private final Graphics2D g;

    /** A raster of this size; {@code shift} moves the figure on it ({@code bbox_inches='tight'} crops so). */
    RasterCanvas(int width, int height, double shiftX, double shiftY) {
        raster = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        g = raster.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.translate(shiftX, shiftY);
    }

    @Override
    public void fill(Shape shape, Color color) {
        g.setColor(color);
        g.fill(shape);
    }

    @Override
    public void stroke(Shape shape, Color color, BasicStroke stroke) {
        g.setColor(color);
        g.setStroke(stroke);
        g.draw(shape);
    }

    @Override
    public void text(ChartText.Placed text, Color color) {
        AffineTransform before = g.getTransform();
        g.transform(text.transform());
        g.setColor(color);
        g.setFont(text.font());
        for (int i = 0; i < text.lines().size(); i++) {
            Point2D origin = text.origins().get(i);
            g.drawString(text.lines().get(i), (float) origin.getX(), (float) origin.getY());
        }
        g.setTransform(before);
    }

    @Override
    public void image(BufferedImage image, Rectangle2D target) {
        Object interpolation = g.getRenderingHint(RenderingHints.KEY_INTERPOLATION);
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_NEAREST_NEIGHBOR);
        AffineTransform place = AffineTransform.getTranslateInstance(target.getX(), target.getY());
        place.scale(target.getWidth() / image.getWidth(), target.getHeight() / image.getHeight());
        g.drawImage(image, place, null);
        if (interpolation != null) {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, interpolation);
        }
    }

    @Override
    public void clip(Shape clip) {
        g.setClip(clip);
    }

    byte[] png() {
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(raster, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a stream in memory does not fail
        }
        return out.toByteArray();
    }
}
