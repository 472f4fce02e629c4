package dev.pysandbox.charts;

import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;

/** matplotlib's marker codes as shapes of a given size (the marker's width, matplotlib's {@code markersize}). */
final class MarkerShapes {
    private MarkerShapes() {
    }

    /** Whether the marker is filled with its face colour; the others ({@code x + | _}) are lines in it. */
    static boolean filled(String marker) {
        return !("x".equals(marker) || "+".equals(marker) || "|".equals(marker) || "_".equals(marker)
                || "1".equals(marker) || "2".equals(marker) || "3".equals(marker) || "4".equals(marker));
    }

    /** The marker centred on {@code (x, y)}, or null for none ({@code None}, {@code ''}, an unknown code). */
    static Shape at(String marker, double x, double y, double size) {
        if (marker == null) {
            return null;
        }
        double r = size / 2;
        return switch (marker) {
            case "o" -> new Ellipse2D.Double(x - r, y - r, size, size);
            // matplotlib draws '.' at half the size of 'o' and ',' as one pixel
            case "." -> new Ellipse2D.Double(x - r / 2, y - r / 2, r, r);
            case "," -> new Rectangle2D.Double(x - 0.5, y - 0.5, 1, 1);
            case "s" -> new Rectangle2D.Double(x - r, y - r, size, size);
            case "^" -> polygon(x, y, r, 3, 90);
            case "v" -> polygon(x, y, r, 3, -90);
            case "<" -> polygon(x, y, r, 3, 180);
            case ">" -> polygon(x, y, r, 3, 0);
            case "D" -> polygon(x, y, r, 4, 90);
            case "d" -> diamond(x, y, r * 0.6, r);
            case "p" -> polygon(x, y, r, 5, 90);
            case "h", "H" -> polygon(x, y, r, 6, 90);
            case "8" -> polygon(x, y, r, 8, 22.5);
            case "*" -> star(x, y, r);
            case "P" -> plusFilled(x, y, r);
            case "X" -> {
                Path2D.Double cross = plusFilled(0, 0, r);
                cross.transform(java.awt.geom.AffineTransform.getRotateInstance(Math.PI / 4));
                cross.transform(java.awt.geom.AffineTransform.getTranslateInstance(x, y));
                yield cross;
            }
            case "x" -> lines(x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r);
            case "+" -> lines(x - r, y, x + r, y, x, y - r, x, y + r);
            case "|" -> lines(x, y - r, x, y + r);
            case "_" -> lines(x - r, y, x + r, y);
            case "1", "2", "3", "4" -> lines(x, y, x, y + r, x, y, x - r * 0.87, y - r / 2, x, y, x + r * 0.87, y - r / 2);
            default -> null;
        };
    }

    /** A regular polygon of {@code sides} corners on a circle of radius {@code r}, the first at {@code firstDegrees}. */
    private static Path2D.Double polygon(double x, double y, double r, int sides, double firstDegrees) {
        return around(x, y, sides, firstDegrees, i -> r);
    }

    /** Corners at even angles about {@code (x, y)}, the i-th at distance {@code radius(i)}, joined and closed. */
    private static Path2D.Double around(double x, double y, int corners, double firstDegrees,
            java.util.function.IntToDoubleFunction radius) {
        Path2D.Double shape = new Path2D.Double();
        for (int i = 0; i < corners; i++) {
            double angle = Math.toRadians(firstDegrees + 360.0 * i / corners);
            double px = x + radius.applyAsDouble(i) * Math.cos(angle);
            double py = y - radius.applyAsDouble(i) * Math.sin(angle);
            if (i == 0) {
                shape.moveTo(px, py);
            } else {
                shape.lineTo(px, py);
            }
        }
        shape.closePath();
        return shape;
    }

    private static Path2D.Double diamond(double x, double y, double rx, double ry) {
        Path2D.Double shape = new Path2D.Double();
        shape.moveTo(x, y - ry);
        shape.lineTo(x + rx, y);
        shape.lineTo(x, y + ry);
        shape.lineTo(x - rx, y);
        shape.closePath();
        return shape;
    }

    /** A five-pointed star: ten corners, the inner ones at matplotlib's 0.38 of the radius. */
    private static Path2D.Double star(double x, double y, double r) {
        return around(x, y, 10, 90, i -> i % 2 == 0 ? r : r * 0.38);
    }

    private static Path2D.Double plusFilled(double x, double y, double r) {
        double w = r / 3;
        Path2D.Double shape = new Path2D.Double();
        shape.moveTo(x - w, y - r);
        shape.lineTo(x + w, y - r);
        shape.lineTo(x + w, y - w);
        shape.lineTo(x + r, y - w);
        shape.lineTo(x + r, y + w);
        shape.lineTo(x + w, y + w);
        shape.lineTo(x + w, y + r);
        shape.lineTo(x - w, y + r);
        shape.lineTo(x - w, y + w);
        shape.lineTo(x - r, y + w);
        shape.lineTo(x - r, y - w);
        shape.lineTo(x - w, y - w);
        shape.closePath();
        return shape;
    }

    private static Path2D.Double lines(double... ends) {
        Path2D.Double shape = new Path2D.Double();
        for (int i = 0; i + 3 < ends.length; i += 4) {
            shape.moveTo(ends[i], ends[i + 1]);
            shape.lineTo(ends[i + 2], ends[i + 3]);
        }
        return shape;
    }
}
