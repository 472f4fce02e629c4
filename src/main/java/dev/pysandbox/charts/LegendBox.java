package dev.pysandbox.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.geom.Line2D;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RoundRectangle2D;
import java.util.ArrayList;
import java.util.List;

import dev.pysandbox.charts.ChartText.Align;
import dev.pysandbox.charts.ChartText.Placed;
import dev.pysandbox.charts.ChartText.VAlign;
import dev.pysandbox.charts.FigureSpec.LegendEntry;
import dev.pysandbox.charts.FigureSpec.LegendSpec;

/**
 * An axes' legend placed on the figure, with matplotlib's spacing (in units of its font size: {@code handlelength}
 * 2, {@code handletextpad} 0.8, {@code labelspacing} 0.5, {@code borderpad} 0.4, {@code borderaxespad} 0.5,
 * {@code columnspacing} 2) and its look: a white box at 80% opacity with a light grey edge and round corners.
 */
final class LegendBox {
    /** matplotlib's location names, in the order {@code best} prefers them. */
    private static final List<String> PLACES = List.of("upper right", "upper left", "lower left", "lower right",
            "right", "center left", "center right", "lower center", "upper center", "center");

    private final LegendSpec spec;
    private final Rectangle2D frame;
    private final double em;
    private final double pt;
    private final List<Placed> labels;
    private final List<Rectangle2D> handles;
    private final Placed title;

    private LegendBox(LegendSpec spec, Rectangle2D frame, double em, double pt, List<Placed> labels,
            List<Rectangle2D> handles, Placed title) {
        this.spec = spec;
        this.frame = frame;
        this.em = em;
        this.pt = pt;
        this.labels = labels;
        this.handles = handles;
        this.title = title;
    }

    /** The legend of this axes, placed; null when it has none or nothing to show. */
    static LegendBox place(AxesGeometry at, double pt) {
        LegendSpec spec = at.spec().legend();
        if (spec == null || spec.entries().isEmpty()) {
            return null;
        }
        double em = (spec.size() > 0 ? spec.size() : Decorations.LABEL_SIZE) * pt;
        Font font = ChartText.font(em, false);
        int columns = Math.max(1, Math.min(spec.columns(), spec.entries().size()));
        int rows = (spec.entries().size() + columns - 1) / columns;
        double rowHeight = ChartText.place("Ag", font, 0, 0, Align.LEFT, VAlign.TOP, 0).bounds().getHeight();
        double[] columnWidths = new double[columns];
        List<Placed> measured = new ArrayList<>();
        for (int i = 0; i < spec.entries().size(); i++) {
            String label = spec.entries().get(i).label();
            Placed text = ChartText.place(label == null ? "" : label, font, 0, 0, Align.LEFT, VAlign.TOP, 0);
            measured.add(text);
            int column = i / rows;
            columnWidths[column] = Math.max(columnWidths[column], 2.0 * em + 0.8 * em + text.bounds().getWidth());
        }
        Placed titleText = spec.title() == null || spec.title().isEmpty() ? null
                : ChartText.place(spec.title(), font, 0, 0, Align.CENTER, VAlign.TOP, 0);
        double contentWidth = (columns - 1) * 2.0 * em;
        for (double w : columnWidths) {
            contentWidth += w;
        }
        double titleHeight = titleText == null ? 0 : titleText.bounds().getHeight() + 0.5 * em;
        if (titleText != null) {
            contentWidth = Math.max(contentWidth, titleText.bounds().getWidth());
        }
        double contentHeight = titleHeight + rows * rowHeight + (rows - 1) * 0.5 * em;
        double width = contentWidth + 2 * 0.4 * em;
        double height = contentHeight + 2 * 0.4 * em;
        Point2D corner = corner(at, spec, width, height, 0.5 * em);
        Rectangle2D frame = new Rectangle2D.Double(corner.getX(), corner.getY(), width, height);

        List<Placed> labels = new ArrayList<>();
        List<Rectangle2D> handles = new ArrayList<>();
        double top = frame.getY() + 0.4 * em + titleHeight;
        double columnLeft = frame.getX() + 0.4 * em;
        for (int i = 0; i < spec.entries().size(); i++) {
            int column = i / rows;
            int row = i % rows;
            if (row == 0 && column > 0) {
                columnLeft += columnWidths[column - 1] + 2.0 * em;
            }
            double rowTop = top + row * (rowHeight + 0.5 * em);
            handles.add(new Rectangle2D.Double(columnLeft, rowTop, 2.0 * em, rowHeight));
            String label = spec.entries().get(i).label();
            labels.add(ChartText.place(label == null ? "" : label, font, columnLeft + 2.8 * em, rowTop, Align.LEFT,
                    VAlign.TOP, 0));
        }
        Placed title = titleText == null ? null : ChartText.place(spec.title(), font, frame.getCenterX(),
                frame.getY() + 0.4 * em, Align.CENTER, VAlign.TOP, 0);
        return new LegendBox(spec, frame, em, pt, labels, handles, title);
    }

    /** The legend's box on the figure. */
    Rectangle2D bounds() {
        return frame;
    }

    void paint(Canvas canvas) {
        if (spec.frame()) {
            Shape box = new RoundRectangle2D.Double(frame.getX(), frame.getY(), frame.getWidth(), frame.getHeight(),
                    0.4 * em, 0.4 * em);
            canvas.fill(box, new Color(255, 255, 255, 204));
            canvas.stroke(box, new Color(204, 204, 204, 204), new BasicStroke((float) (1.0 * pt)));
        }
        if (title != null) {
            canvas.text(title, Color.BLACK);
        }
        for (int i = 0; i < labels.size(); i++) {
            handle(canvas, spec.entries().get(i), handles.get(i));
            canvas.text(labels.get(i), Color.BLACK);
        }
    }

    private void handle(Canvas canvas, LegendEntry entry, Rectangle2D at) {
        double middle = at.getCenterY();
        if (entry.patch()) {
            Rectangle2D patch = new Rectangle2D.Double(at.getX(), middle - 0.35 * em, at.getWidth(), 0.7 * em);
            Color face = Colors.parseOrNone(entry.color());
            if (face != null) {
                canvas.fill(patch, face);
            }
            Color edge = Colors.parseOrNone(entry.edge());
            if (edge != null && entry.width() > 0) {
                canvas.stroke(patch, edge, ArtistPainter.stroke(entry.width(), null, pt));
            }
            return;
        }
        Color color = Colors.parseOrNone(entry.color());
        if (entry.line() && color != null) {
            canvas.stroke(new Line2D.Double(at.getX(), middle, at.getMaxX(), middle), color,
                    ArtistPainter.stroke(entry.width() > 0 ? entry.width() : 1.5, entry.dash(), pt));
        }
        if (entry.marker() != null) {
            Shape marker = MarkerShapes.at(entry.marker(), at.getCenterX(), middle, 6 * pt);
            if (marker != null) {
                Color face = Colors.parse(entry.markerFace(), color == null ? Color.BLACK : color);
                if (MarkerShapes.filled(entry.marker())) {
                    canvas.fill(marker, face);
                } else {
                    canvas.stroke(marker, face, new BasicStroke((float) pt));
                }
            }
        }
    }

    /** The top left corner of a legend of this size, where its spec puts it. */
    private static Point2D corner(AxesGeometry at, LegendSpec spec, double width, double height, double pad) {
        Rectangle2D box = at.box();
        if (spec.anchor() != null && spec.anchor().size() >= 2 && spec.anchor().get(0) != null
                && spec.anchor().get(1) != null) {
            double ax = box.getX() + spec.anchor().get(0) * box.getWidth();
            double ay = box.getMaxY() - spec.anchor().get(1) * box.getHeight();
            String loc = spec.loc() == null || "best".equals(spec.loc()) ? "upper right" : spec.loc();
            return anchored(new Rectangle2D.Double(ax, ay, 0, 0), loc, width, height, pad);
        }
        if (spec.loc() != null && !"best".equals(spec.loc()) && PLACES.contains(spec.loc())) {
            return anchored(box, spec.loc(), width, height, pad);
        }
        // best: the place that covers the fewest of the data's points, the earliest in matplotlib's order on a tie
        List<Point2D> points = dataPoints(at);
        Point2D best = null;
        long fewest = Long.MAX_VALUE;
        for (String place : PLACES) {
            Point2D corner = anchored(box, place, width, height, pad);
            Rectangle2D area = new Rectangle2D.Double(corner.getX(), corner.getY(), width, height);
            long covered = points.stream().filter(area::contains).count();
            if (covered < fewest) {
                fewest = covered;
                best = corner;
            }
        }
        return best;
    }

    private static Point2D anchored(Rectangle2D box, String place, double width, double height, double pad) {
        double left = box.getX() + pad;
        double right = box.getMaxX() - pad - width;
        double middleX = box.getCenterX() - width / 2;
        double top = box.getY() + pad;
        double bottom = box.getMaxY() - pad - height;
        double middleY = box.getCenterY() - height / 2;
        if (box.getWidth() == 0) { // an anchor point: the legend's named corner goes on it
            left = box.getX() + pad;
            right = box.getX() - pad - width;
            middleX = box.getX() - width / 2;
            top = box.getY() + pad;
            bottom = box.getY() - pad - height;
            middleY = box.getY() - height / 2;
        }
        return switch (place) {
            case "upper left" -> new Point2D.Double(left, top);
            case "lower left" -> new Point2D.Double(left, bottom);
            case "lower right" -> new Point2D.Double(right, bottom);
            case "right", "center right" -> new Point2D.Double(right, middleY);
            case "center left" -> new Point2D.Double(left, middleY);
            case "lower center" -> new Point2D.Double(middleX, bottom);
            case "upper center" -> new Point2D.Double(middleX, top);
            case "center" -> new Point2D.Double(middleX, middleY);
            default -> new Point2D.Double(right, top);
        };
    }

    /** The pixels the axes' data lies on, sampled: the points of lines and markers, the tops of bars. */
    private static List<Point2D> dataPoints(AxesGeometry at) {
        List<Point2D> points = new ArrayList<>();
        for (Artist artist : at.spec().artists()) {
            switch (artist) {
                case Artist.Line line when line.x() != null && line.y() != null && "data".equals(line.xIn())
                        && "data".equals(line.yIn()) -> sample(points, at, line.x(), line.y());
                case Artist.Markers markers when markers.x() != null && markers.y() != null ->
                        sample(points, at, markers.x(), markers.y());
                case Artist.Rects rects when rects.x() != null && rects.y() != null && rects.w() != null
                        && rects.h() != null -> {
                    int n = Math.min(Math.min(rects.x().length, rects.y().length), Math.min(rects.w().length,
                            rects.h().length));
                    for (int i = 0; i < n; i++) {
                        for (double f = 0; f <= 1; f += 0.25) {
                            points.add(new Point2D.Double(at.px(rects.x()[i] + f * rects.w()[i]),
                                    at.py(rects.y()[i] + rects.h()[i])));
                            points.add(new Point2D.Double(at.px(rects.x()[i] + rects.w()[i] / 2),
                                    at.py(rects.y()[i] + f * rects.h()[i])));
                        }
                    }
                }
                default -> {
                }
            }
        }
        return points;
    }

    private static void sample(List<Point2D> points, AxesGeometry at, double[] x, double[] y) {
        int n = Math.min(x.length, y.length);
        int step = Math.max(1, n / 2000);
        for (int i = 0; i < n; i += step) {
            points.add(new Point2D.Double(at.px(x[i]), at.py(y[i])));
            if (i + step < n) { // the segment's middle too, so a straight line through the corner counts
                points.add(new Point2D.Double(at.px((x[i] + x[i + step]) / 2), at.py((y[i] + y[i + step]) / 2)));
            }
        }
    }
}
