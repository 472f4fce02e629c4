package dev.pysandbox.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Shape;
import java.awt.geom.Arc2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.util.List;

import dev.pysandbox.charts.ChartText.Align;
import dev.pysandbox.charts.ChartText.Placed;
import dev.pysandbox.charts.ChartText.VAlign;

/**
 * Draws an axes' artists on a canvas, in data coordinates mapped by the axes' geometry. The painter clips them to
 * the box; texts and arrows are drawn unclipped after, as matplotlib lets annotations leave the box.
 */
final class ArtistPainter {
    private final AxesGeometry at;
    private final Canvas canvas;
    private final double pt;

    /** @param pt pixels a point */
    ArtistPainter(AxesGeometry at, Canvas canvas, double pt) {
        this.at = at;
        this.canvas = canvas;
        this.pt = pt;
    }

    /** Draws what lies in the box (everything but texts and arrows). */
    void paintClipped(Interrupts interrupts) {
        for (Artist artist : at.spec().artists()) {
            interrupts.check();
            switch (artist) {
                case Artist.Line line -> line(line);
                case Artist.Markers markers -> markers(markers);
                case Artist.Rects rects -> rects(rects);
                case Artist.Polygon polygon -> polygon(polygon);
                case Artist.Wedge wedge -> wedge(wedge);
                case Artist.Image image -> image(image);
                case Artist.Text text -> {
                }
            }
        }
    }

    /** Draws the texts and their arrows, which may reach beyond the box. */
    void paintUnclipped() {
        for (Artist artist : at.spec().artists()) {
            if (artist instanceof Artist.Text text) {
                text(text);
            }
        }
    }

    /** A stroke of {@code width} points, dashed as {@code dash} says (points, on and off), or solid. */
    static BasicStroke stroke(double width, List<Double> dash, double pt) {
        float w = (float) Math.max(0.1, width * pt);
        if (dash == null || dash.isEmpty() || dash.stream().allMatch(d -> d == null || !(d > 0))) {
            return new BasicStroke(w, BasicStroke.CAP_SQUARE, BasicStroke.JOIN_ROUND);
        }
        float[] pattern = new float[dash.size()];
        for (int i = 0; i < pattern.length; i++) {
            Double d = dash.get(i);
            pattern[i] = (float) Math.max(0.1, (d == null ? 1 : d) * pt);
        }
        return new BasicStroke(w, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, pattern, 0);
    }

    private void line(Artist.Line line) {
        if (line.x() == null || line.y() == null) {
            return;
        }
        int n = Math.min(line.x().length, line.y().length);
        Color color = Colors.parseOrNone(line.color());
        if (color != null && line.width() > 0) {
            Path2D.Double path = new Path2D.Double();
            boolean open = false;
            double lastX = 0;
            double lastY = 0;
            for (int i = 0; i < n; i++) {
                double x = at.px(line.x()[i], line.xIn());
                double y = at.py(line.y()[i], line.yIn());
                if (!Double.isFinite(x) || !Double.isFinite(y)) {
                    open = false;
                    continue;
                }
                if (!open) {
                    path.moveTo(x, y);
                    open = true;
                } else if (line.step() != null) {
                    switch (line.step()) {
                        case "pre" -> path.lineTo(lastX, y);
                        case "post" -> path.lineTo(x, lastY);
                        default -> {
                            path.lineTo((lastX + x) / 2, lastY);
                            path.lineTo((lastX + x) / 2, y);
                        }
                    }
                    path.lineTo(x, y);
                } else {
                    path.lineTo(x, y);
                }
                lastX = x;
                lastY = y;
            }
            canvas.stroke(path, color, stroke(line.width(), line.dash(), pt));
        }
        if (line.marker() != null) {
            Color face = Colors.parseOrNone(line.markerFace());
            Color edge = Colors.parseOrNone(line.markerEdge());
            double size = (line.markerSize() > 0 ? line.markerSize() : 6) * pt;
            BasicStroke edgeStroke = new BasicStroke((float) (MarkerShapes.filled(line.marker()) ? 1.0 * pt
                    : Math.max(1.0, line.width()) * pt));
            for (int i = 0; i < n; i++) {
                double x = at.px(line.x()[i], line.xIn());
                double y = at.py(line.y()[i], line.yIn());
                if (Double.isFinite(x) && Double.isFinite(y)) {
                    marker(line.marker(), x, y, size, face, edge, edgeStroke);
                }
            }
        }
    }

    private void marker(String code, double x, double y, double size, Color face, Color edge, BasicStroke edgeStroke) {
        Shape shape = MarkerShapes.at(code, x, y, size);
        if (shape == null) {
            return;
        }
        if (MarkerShapes.filled(code)) {
            if (face != null) {
                canvas.fill(shape, face);
            }
            if (edge != null) {
                canvas.stroke(shape, edge, edgeStroke);
            }
        } else {
            Color color = face != null ? face : edge;
            if (color != null) {
                canvas.stroke(shape, color, edgeStroke);
            }
        }
    }

    private void markers(Artist.Markers markers) {
        if (markers.x() == null || markers.y() == null) {
            return;
        }
        int n = Math.min(markers.x().length, markers.y().length);
        List<String> colors = markers.colors() == null || markers.colors().isEmpty() ? List.of("#1f77b4ff")
                : markers.colors();
        double[] sizes = markers.sizes() == null || markers.sizes().length == 0 ? new double[] {36} : markers.sizes();
        Color edge = Colors.parseOrNone(markers.edge());
        BasicStroke edgeStroke = new BasicStroke((float) (Math.max(0, markers.edgeWidth() > 0 ? markers.edgeWidth()
                : 1.0) * pt));
        String code = markers.marker() == null ? "o" : markers.marker();
        Color single = colors.size() == 1 ? Colors.parseOrNone(colors.get(0)) : null;
        for (int i = 0; i < n; i++) {
            double x = at.px(markers.x()[i]);
            double y = at.py(markers.y()[i]);
            double area = sizes[i % sizes.length];
            if (!Double.isFinite(x) || !Double.isFinite(y) || !(area > 0)) {
                continue;
            }
            Color face = single != null ? single : Colors.parseOrNone(colors.get(i % colors.size()));
            marker(code, x, y, Math.sqrt(area) * pt, face, edge, edgeStroke);
        }
    }

    private void rects(Artist.Rects rects) {
        if (rects.x() == null || rects.y() == null || rects.w() == null || rects.h() == null) {
            return;
        }
        int n = Math.min(Math.min(rects.x().length, rects.y().length), Math.min(rects.w().length, rects.h().length));
        List<String> faces = rects.faces() == null || rects.faces().isEmpty() ? List.of("#1f77b4ff") : rects.faces();
        Color edge = Colors.parseOrNone(rects.edge());
        BasicStroke edgeStroke = stroke(rects.edgeWidth(), null, pt);
        for (int i = 0; i < n; i++) {
            double x1 = at.px(rects.x()[i]);
            double x2 = at.px(rects.x()[i] + rects.w()[i]);
            double y1 = at.py(rects.y()[i]);
            double y2 = at.py(rects.y()[i] + rects.h()[i]);
            if (!Double.isFinite(x1) || !Double.isFinite(x2) || !Double.isFinite(y1) || !Double.isFinite(y2)) {
                continue;
            }
            Rectangle2D box = new Rectangle2D.Double(Math.min(x1, x2), Math.min(y1, y2), Math.abs(x2 - x1),
                    Math.abs(y2 - y1));
            Color face = Colors.parseOrNone(faces.get(i % faces.size()));
            if (face != null) {
                canvas.fill(box, face);
            }
            if (edge != null && rects.edgeWidth() > 0) {
                canvas.stroke(box, edge, edgeStroke);
            }
        }
    }

    private void polygon(Artist.Polygon polygon) {
        if (polygon.x() == null || polygon.y() == null) {
            return;
        }
        Path2D.Double path = new Path2D.Double();
        boolean started = false;
        for (int i = 0; i < Math.min(polygon.x().length, polygon.y().length); i++) {
            double x = at.px(polygon.x()[i]);
            double y = at.py(polygon.y()[i]);
            if (!Double.isFinite(x) || !Double.isFinite(y)) {
                continue;
            }
            if (started) {
                path.lineTo(x, y);
            } else {
                path.moveTo(x, y);
                started = true;
            }
        }
        if (!started) {
            return;
        }
        path.closePath();
        Color face = Colors.parseOrNone(polygon.face());
        if (face != null) {
            canvas.fill(path, face);
        }
        Color edge = Colors.parseOrNone(polygon.edge());
        if (edge != null && polygon.edgeWidth() > 0) {
            canvas.stroke(path, edge, stroke(polygon.edgeWidth(), null, pt));
        }
    }

    private void wedge(Artist.Wedge wedge) {
        double cx = at.px(wedge.cx());
        double cy = at.py(wedge.cy());
        double rx = Math.abs(at.px(wedge.cx() + wedge.r()) - cx);
        double ry = Math.abs(at.py(wedge.cy() + wedge.r()) - cy);
        if (!Double.isFinite(cx + cy + rx + ry)) {
            return;
        }
        Arc2D.Double arc = new Arc2D.Double(cx - rx, cy - ry, 2 * rx, 2 * ry, wedge.from(), wedge.to() - wedge.from(),
                Arc2D.PIE);
        Color face = Colors.parseOrNone(wedge.face());
        if (face != null) {
            canvas.fill(arc, face);
        }
        Color edge = Colors.parseOrNone(wedge.edge());
        if (edge != null && wedge.edgeWidth() > 0) {
            canvas.stroke(arc, edge, new BasicStroke((float) (wedge.edgeWidth() * pt), BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_ROUND));
        }
    }

    private void image(Artist.Image image) {
        if (image.pixels() == null || image.rows() <= 0 || image.cols() <= 0
                || (long) image.rows() * image.cols() > image.pixels().length || image.extent() == null
                || image.extent().length != 4) {
            return;
        }
        BufferedImage raster = new BufferedImage(image.cols(), image.rows(), BufferedImage.TYPE_INT_RGB);
        raster.setRGB(0, 0, image.cols(), image.rows(), image.pixels(), 0, image.cols());
        double[] e = image.extent();
        double x1 = at.px(e[0]);
        double x2 = at.px(e[1]);
        double y1 = at.py(e[2]);
        double y2 = at.py(e[3]);
        if (!Double.isFinite(x1 + x2 + y1 + y2)) {
            return;
        }
        // An extent given high-to-low flips the picture, as matplotlib does.
        BufferedImage shown = raster;
        if (x1 > x2 || y2 > y1) {
            shown = new BufferedImage(image.cols(), image.rows(), BufferedImage.TYPE_INT_RGB);
            for (int r = 0; r < image.rows(); r++) {
                for (int c = 0; c < image.cols(); c++) {
                    int sr = y2 > y1 ? image.rows() - 1 - r : r;
                    int sc = x1 > x2 ? image.cols() - 1 - c : c;
                    shown.setRGB(c, r, raster.getRGB(sc, sr));
                }
            }
        }
        canvas.image(shown, new Rectangle2D.Double(Math.min(x1, x2), Math.min(y1, y2), Math.abs(x2 - x1),
                Math.abs(y2 - y1)));
    }

    private void text(Artist.Text text) {
        double x = at.px(text.x(), text.xIn()) + text.dx() * pt;
        double y = at.py(text.y(), text.yIn()) - text.dy() * pt;
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            return;
        }
        if (text.text() == null || text.text().isEmpty()) {
            if (text.arrow() != null) {
                arrow(new Rectangle2D.Double(x, y, 0, 0), text.arrow());
            }
            return;
        }
        Placed placed = ChartText.place(text.text(), ChartText.font((text.size() > 0 ? text.size() : 10) * pt,
                text.bold()), x, y, Align.named(text.align()), VAlign.named(text.valign() == null ? "baseline"
                : text.valign()), text.rotation());
        Color box = Colors.parseOrNone(text.box());
        if (box != null) {
            Rectangle2D b = placed.bounds();
            double pad = 3 * pt;
            canvas.fill(new RoundRectangle2D.Double(b.getX() - pad, b.getY() - pad, b.getWidth() + 2 * pad,
                    b.getHeight() + 2 * pad, 2 * pad, 2 * pad), box);
        }
        canvas.text(placed, Colors.parse(text.color(), Color.BLACK));
        if (text.arrow() != null) {
            Rectangle2D b = placed.bounds();
            double pad = 2 * pt;
            arrow(new Rectangle2D.Double(b.getX() - pad, b.getY() - pad, b.getWidth() + 2 * pad, b.getHeight() + 2 * pad),
                    text.arrow());
        }
    }

    /** An arrow from the edge of {@code from} (a text's box, or a point) to its data point, as annotate draws it. */
    private void arrow(Rectangle2D from, Artist.ArrowTo arrow) {
        double x2 = at.px(arrow.x());
        double y2 = at.py(arrow.y());
        double cx = from.getCenterX();
        double cy = from.getCenterY();
        if (!Double.isFinite(x2 + y2) || from.contains(x2, y2)) {
            return;
        }
        // Where the line from the box's centre to the point leaves the box.
        double dx = x2 - cx;
        double dy = y2 - cy;
        double reach = Math.min(dx == 0 ? Double.MAX_VALUE : from.getWidth() / 2 / Math.abs(dx),
                dy == 0 ? Double.MAX_VALUE : from.getHeight() / 2 / Math.abs(dy));
        double x1 = cx + dx * Math.min(1, reach);
        double y1 = cy + dy * Math.min(1, reach);
        Color color = Colors.parse(arrow.color(), Color.BLACK);
        double width = arrow.width() > 0 ? arrow.width() : 1;
        double head = 8 * pt;
        double angle = Math.atan2(y2 - y1, x2 - x1);
        double bx = x2 - head * Math.cos(angle);
        double by = y2 - head * Math.sin(angle);
        canvas.stroke(new Line2D.Double(x1, y1, bx, by), color, new BasicStroke((float) (width * pt)));
        Path2D.Double tip = new Path2D.Double();
        tip.moveTo(x2, y2);
        tip.lineTo(bx + head * 0.35 * Math.sin(angle), by - head * 0.35 * Math.cos(angle));
        tip.lineTo(bx - head * 0.35 * Math.sin(angle), by + head * 0.35 * Math.cos(angle));
        tip.closePath();
        canvas.fill(tip, color);
    }
}
