package dev.pysandbox.charts;

import java.awt.Color;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;

import dev.pysandbox.charts.ChartText.Align;
import dev.pysandbox.charts.ChartText.Placed;
import dev.pysandbox.charts.ChartText.VAlign;
import dev.pysandbox.charts.FigureSpec.AxisSpec;
import dev.pysandbox.charts.FigureSpec.ColorbarSpec;
import dev.pysandbox.charts.FigureSpec.Label;
import dev.pysandbox.charts.FigureSpec.Tick;

/**
 * What an axes draws around its box: tick marks, tick labels, axis labels, titles, and its colour bar's ticks, with
 * matplotlib's default sizes ({@code xtick.major.size} 3.5 pt, labels 10 pt, titles 12 pt with a 6 pt pad). The
 * layout measures them ({@link #bounds}) and the painter draws them, so both see the same text in the same place.
 */
final class Decorations {
    static final double TICK_LENGTH = 3.5;
    static final double TICK_PAD = 3.5;
    static final double TICK_WIDTH = 0.8;
    static final double LABEL_SIZE = 10;
    static final double LABEL_PAD = 4;
    static final double TITLE_SIZE = 12;
    static final double TITLE_PAD = 6;
    /** Ticks a hair outside the limits still count as on the axis (matplotlib's own tolerance). */
    private static final double ON_AXIS = 1e-9;

    /** A text to draw and its colour. */
    record Text(Placed placed, Color color) {
    }

    final List<Line2D> ticks = new ArrayList<>();
    final List<Text> texts = new ArrayList<>();

    /** The decorations of an axes placed as {@code geometry}, at {@code pt} pixels a point. */
    static Decorations of(AxesGeometry geometry, double pt) {
        Decorations decorations = new Decorations();
        if (geometry.spec().visible()) {
            decorations.axis(geometry, geometry.spec().x(), true, pt);
            decorations.axis(geometry, geometry.spec().y(), false, pt);
        }
        decorations.titles(geometry, pt);
        if (geometry.colorbar() != null && geometry.spec().colorbar() != null) {
            decorations.colorbar(geometry.colorbar(), geometry.spec().colorbar(), pt);
        }
        return decorations;
    }

    /** The box around every text, or null when there is none. */
    Rectangle2D bounds() {
        Rectangle2D union = null;
        for (Text text : texts) {
            union = union == null ? (Rectangle2D) text.placed().bounds().clone()
                    : union.createUnion(text.placed().bounds());
        }
        return union;
    }

    private void axis(AxesGeometry geometry, AxisSpec axis, boolean horizontal, double pt) {
        Rectangle2D box = geometry.box();
        boolean far = horizontal ? "top".equals(axis.side()) : "right".equals(axis.side());
        double edge = horizontal ? (far ? box.getMinY() : box.getMaxY()) : (far ? box.getMaxX() : box.getMinX());
        // Which way is outward along the other coordinate: down (+y) below the box, left (-x) beside it ...
        double out = horizontal ? (far ? -1 : 1) : (far ? 1 : -1);
        double tickEnd = edge + out * TICK_LENGTH * pt;
        double labelAt = edge + out * (TICK_LENGTH + TICK_PAD) * pt;
        Rectangle2D labels = null;
        double low = Math.min(axis.low(), axis.high());
        double high = Math.max(axis.low(), axis.high());
        double slack = (high - low) * ON_AXIS;
        for (Tick tick : axis.ticks()) {
            if (!(tick.at() >= low - slack && tick.at() <= high + slack)) {
                continue;
            }
            double at = horizontal ? geometry.px(tick.at()) : geometry.py(tick.at());
            ticks.add(horizontal ? new Line2D.Double(at, edge, at, tickEnd) : new Line2D.Double(edge, at, tickEnd, at));
            if (tick.label() == null || tick.label().isEmpty()) {
                continue;
            }
            Placed label;
            if (horizontal) {
                Align align = axis.rotation() == 0 ? Align.CENTER : Align.named(axis.align());
                label = ChartText.place(tick.label(), ChartText.font(LABEL_SIZE * pt, false), at, labelAt, align,
                        far ? VAlign.BOTTOM : VAlign.TOP, axis.rotation());
            } else {
                label = ChartText.place(tick.label(), ChartText.font(LABEL_SIZE * pt, false), labelAt, at,
                        far ? Align.LEFT : Align.RIGHT, VAlign.CENTER, axis.rotation());
            }
            texts.add(new Text(label, Color.BLACK));
            labels = labels == null ? (Rectangle2D) label.bounds().clone() : labels.createUnion(label.bounds());
        }
        double beyond = labels == null ? labelAt
                : horizontal ? (far ? labels.getMinY() : labels.getMaxY()) : (far ? labels.getMaxX() : labels.getMinX());
        if (axis.offset() != null && !axis.offset().isEmpty()) {
            Placed offset = horizontal
                    ? ChartText.place(axis.offset(), ChartText.font(LABEL_SIZE * pt, false), box.getMaxX(), beyond,
                            Align.RIGHT, far ? VAlign.BOTTOM : VAlign.TOP, 0)
                    : ChartText.place(axis.offset(), ChartText.font(LABEL_SIZE * pt, false),
                            far ? box.getMaxX() : box.getMinX(), box.getMinY() - 2 * pt,
                            far ? Align.RIGHT : Align.LEFT, VAlign.BOTTOM, 0);
            texts.add(new Text(offset, Color.BLACK));
        }
        Label title = axis.label();
        if (title != null && title.text() != null && !title.text().isEmpty()) {
            double size = title.size() > 0 ? title.size() : LABEL_SIZE;
            Placed placed = horizontal
                    ? ChartText.place(title.text(), ChartText.font(size * pt, title.bold()), box.getCenterX(),
                            beyond + out * LABEL_PAD * pt, Align.CENTER, far ? VAlign.BOTTOM : VAlign.TOP, 0)
                    : ChartText.place(title.text(), ChartText.font(size * pt, title.bold()),
                            beyond + out * LABEL_PAD * pt, box.getCenterY(), far ? Align.LEFT : Align.RIGHT,
                            VAlign.CENTER, far ? -90 : 90);
            texts.add(new Text(placed, Colors.parse(title.color(), Color.BLACK)));
        }
    }

    private void titles(AxesGeometry geometry, double pt) {
        if (geometry.spec().titles() == null) {
            return;
        }
        Rectangle2D box = geometry.box();
        double top = box.getMinY();
        // Above any text already over the box (tick labels of a top x axis), as matplotlib moves titles up.
        for (Text text : texts) {
            if (text.placed().bounds().getMaxY() <= box.getMinY() + 1) {
                top = Math.min(top, text.placed().bounds().getMinY());
            }
        }
        title(geometry.spec().titles().left(), box.getMinX(), top, Align.LEFT, pt);
        title(geometry.spec().titles().center(), box.getCenterX(), top, Align.CENTER, pt);
        title(geometry.spec().titles().right(), box.getMaxX(), top, Align.RIGHT, pt);
    }

    private void title(Label label, double x, double top, Align align, double pt) {
        if (label == null || label.text() == null || label.text().isEmpty()) {
            return;
        }
        double size = label.size() > 0 ? label.size() : TITLE_SIZE;
        texts.add(new Text(ChartText.place(label.text(), ChartText.font(size * pt, label.bold()), x,
                top - TITLE_PAD * pt, align, VAlign.BOTTOM, 0), Colors.parse(label.color(), Color.BLACK)));
    }

    private void colorbar(Rectangle2D bar, ColorbarSpec spec, double pt) {
        double right = bar.getMaxX();
        Rectangle2D labels = null;
        double low = Math.min(spec.low(), spec.high());
        double high = Math.max(spec.low(), spec.high());
        for (Tick tick : spec.ticks()) {
            if (!(tick.at() >= low && tick.at() <= high) || spec.high() == spec.low()) {
                continue;
            }
            double y = bar.getMaxY() - (tick.at() - spec.low()) / (spec.high() - spec.low()) * bar.getHeight();
            ticks.add(new Line2D.Double(right, y, right + TICK_LENGTH * pt, y));
            Placed label = ChartText.place(tick.label(), ChartText.font(LABEL_SIZE * pt, false),
                    right + (TICK_LENGTH + TICK_PAD) * pt, y, Align.LEFT, VAlign.CENTER, 0);
            texts.add(new Text(label, Color.BLACK));
            labels = labels == null ? (Rectangle2D) label.bounds().clone() : labels.createUnion(label.bounds());
        }
        Label title = spec.label();
        if (title != null && title.text() != null && !title.text().isEmpty()) {
            double beyond = labels == null ? right + TICK_LENGTH * pt : labels.getMaxX();
            texts.add(new Text(ChartText.place(title.text(), ChartText.font((title.size() > 0 ? title.size()
                    : LABEL_SIZE) * pt, title.bold()), beyond + LABEL_PAD * pt, bar.getCenterY(), Align.LEFT,
                    VAlign.CENTER, 90), Colors.parse(title.color(), Color.BLACK)));
        }
    }
}
