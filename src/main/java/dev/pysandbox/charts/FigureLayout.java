package dev.pysandbox.charts;

import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;

import dev.pysandbox.charts.ChartText.Align;
import dev.pysandbox.charts.ChartText.Placed;
import dev.pysandbox.charts.ChartText.VAlign;
import dev.pysandbox.charts.FigureSpec.AxesSpec;
import dev.pysandbox.charts.FigureSpec.AxisSpec;
import dev.pysandbox.charts.FigureSpec.Cell;
import dev.pysandbox.charts.FigureSpec.Layout;

/**
 * Where each axes of a figure goes, in pixels. By default as matplotlib's subplot parameters say (fixed margins as
 * fractions of the figure, {@code wspace}/{@code hspace} as fractions of an axes); after {@code tight_layout()},
 * with margins and gaps just wide enough for the text around each axes, measured, plus matplotlib's pad of 1.08
 * font sizes. Then a colour bar takes its share of its axes' box (matplotlib's {@code fraction} 0.15 and {@code pad}
 * 0.05), and an axes with {@code equal} scales shrinks its box about its centre.
 */
final class FigureLayout {
    /** {@code tight_layout}'s pad, in font sizes (of 10 points). */
    private static final double TIGHT_PAD = 1.08;
    /** Where {@code suptitle} sits by default: 98% up the figure, its top there. */
    private static final double SUPTITLE_Y = 0.98;

    private FigureLayout() {
    }

    /** The suptitle placed on a figure of this size, or null when there is none. */
    static Placed suptitle(FigureSpec spec, double width, double height, double pt) {
        FigureSpec.Label title = spec.suptitle();
        if (title == null || title.text() == null || title.text().isEmpty()) {
            return null;
        }
        double size = title.size() > 0 ? title.size() : Decorations.TITLE_SIZE;
        return ChartText.place(title.text(), ChartText.font(size * pt, title.bold()), width / 2,
                (1 - SUPTITLE_Y) * height, Align.CENTER, VAlign.TOP, 0);
    }

    /** Every axes of the figure placed, in the spec's order. */
    static List<AxesGeometry> place(FigureSpec spec, double width, double height, double pt) {
        Layout layout = spec.layout();
        Margins margins = new Margins(layout.left() * width, (1 - layout.right()) * width,
                (1 - layout.top()) * height, layout.bottom() * height, -layout.wspace(), -layout.hspace());
        List<Rectangle2D> cells = cells(spec, width, height, margins);
        List<AxesGeometry> placed = fitted(spec, cells);
        if (!layout.tight()) {
            return placed;
        }
        double pad = TIGHT_PAD * Decorations.LABEL_SIZE * pt;
        double left = 0;
        double right = 0;
        double top = 0;
        double bottom = 0;
        double across = 0;
        double down = 0;
        for (int i = 0; i < placed.size(); i++) {
            AxesSpec axes = spec.axes().get(i);
            Cell cell = axes.cell();
            if (cell == null || axes.twinOf() >= 0 && axes.twinOf() < i) {
                if (axes.twinOf() >= 0 && axes.twinOf() < i && spec.axes().get(axes.twinOf()).cell() != null) {
                    cell = spec.axes().get(axes.twinOf()).cell();
                } else {
                    continue;
                }
            }
            Rectangle2D box = cells.get(i);
            Rectangle2D used = box;
            Rectangle2D text = Decorations.of(placed.get(i), pt).bounds();
            if (text != null) {
                used = used.createUnion(text);
            }
            LegendBox legend = LegendBox.place(placed.get(i), pt);
            if (legend != null) {
                used = used.createUnion(legend.bounds());
            }
            double l = box.getMinX() - used.getMinX();
            double r = used.getMaxX() - box.getMaxX();
            double t = box.getMinY() - used.getMinY();
            double b = used.getMaxY() - box.getMaxY();
            if (cell.col() == 0) {
                left = Math.max(left, l);
            }
            if (cell.col() + Math.max(1, cell.colspan()) >= cell.cols()) {
                right = Math.max(right, r);
            }
            if (cell.row() == 0) {
                top = Math.max(top, t);
            }
            if (cell.row() + Math.max(1, cell.rowspan()) >= cell.rows()) {
                bottom = Math.max(bottom, b);
            }
            across = Math.max(across, l + r);
            down = Math.max(down, t + b);
        }
        Placed suptitle = suptitle(spec, width, height, pt);
        double above = suptitle == null ? 0 : suptitle.bounds().getMaxY();
        Margins tight = new Margins(left + pad, right + pad, top + pad + above, bottom + pad, across + pad,
                down + pad);
        return fitted(spec, cells(spec, width, height, tight));
    }

    /**
     * The margins around the grid and the gaps between its cells, in pixels; a negative gap is a fraction of a
     * cell instead ({@code wspace}, {@code hspace}).
     */
    private record Margins(double left, double right, double top, double bottom, double across, double down) {
    }

    /** Each axes' cell: its place in its grid, or its {@code rect}; a twin's is its original's. */
    private static List<Rectangle2D> cells(FigureSpec spec, double width, double height, Margins margins) {
        List<Rectangle2D> cells = new ArrayList<>();
        for (int i = 0; i < spec.axes().size(); i++) {
            AxesSpec axes = spec.axes().get(i);
            if (axes.twinOf() >= 0 && axes.twinOf() < i) {
                cells.add(cells.get(axes.twinOf()));
            } else if (axes.cell() != null) {
                cells.add(cell(axes.cell(), width, height, margins));
            } else if (axes.rect() != null && axes.rect().size() == 4 && axes.rect().stream().allMatch(v -> v != null)) {
                List<Double> r = axes.rect();
                cells.add(new Rectangle2D.Double(r.get(0) * width, (1 - r.get(1) - r.get(3)) * height,
                        r.get(2) * width, r.get(3) * height));
            } else {
                cells.add(cell(new Cell(1, 1, 0, 0, 1, 1), width, height, margins));
            }
        }
        return cells;
    }

    private static Rectangle2D cell(Cell cell, double width, double height, Margins margins) {
        int cols = Math.max(1, cell.cols());
        int rows = Math.max(1, cell.rows());
        double[] x = span(width - margins.left() - margins.right(), cols, margins.across());
        double[] y = span(height - margins.top() - margins.bottom(), rows, margins.down());
        int col = Math.max(0, Math.min(cols - 1, cell.col()));
        int row = Math.max(0, Math.min(rows - 1, cell.row()));
        int lastCol = Math.max(col, Math.min(cols - 1, col + Math.max(1, cell.colspan()) - 1));
        int lastRow = Math.max(row, Math.min(rows - 1, row + Math.max(1, cell.rowspan()) - 1));
        double left = margins.left() + col * (x[0] + x[1]);
        double right = margins.left() + lastCol * (x[0] + x[1]) + x[0];
        double top = margins.top() + row * (y[0] + y[1]);
        double bottom = margins.top() + lastRow * (y[0] + y[1]) + y[0];
        return new Rectangle2D.Double(left, top, Math.max(1, right - left), Math.max(1, bottom - top));
    }

    /** A cell's size and the gap after it, for {@code count} cells in {@code length} pixels. */
    private static double[] span(double length, int count, double gap) {
        if (gap < 0) { // a fraction of a cell, as wspace and hspace are
            double size = length / (count + -gap * (count - 1));
            return new double[] {size, -gap * size};
        }
        return new double[] {Math.max(1, (length - gap * (count - 1)) / count), gap};
    }

    /** The axes in their cells, each box narrowed for a colour bar and shrunk for equal scales. */
    private static List<AxesGeometry> fitted(FigureSpec spec, List<Rectangle2D> cells) {
        List<AxesGeometry> placed = new ArrayList<>();
        for (int i = 0; i < spec.axes().size(); i++) {
            AxesSpec axes = spec.axes().get(i);
            if (axes.twinOf() >= 0 && axes.twinOf() < i) {
                placed.add(new AxesGeometry(axes, placed.get(axes.twinOf()).box(), null));
                continue;
            }
            Rectangle2D box = cells.get(i);
            Rectangle2D colorbar = null;
            if (axes.colorbar() != null) {
                double barWidth = Math.min(0.15 * box.getWidth(), box.getHeight() / 20);
                colorbar = new Rectangle2D.Double(box.getX() + 0.85 * box.getWidth(), box.getY(), barWidth,
                        box.getHeight());
                box = new Rectangle2D.Double(box.getX(), box.getY(), 0.8 * box.getWidth(), box.getHeight());
            }
            if (axes.equal()) {
                box = equalScales(box, axes.x(), axes.y());
            }
            placed.add(new AxesGeometry(axes, box, colorbar));
        }
        return placed;
    }

    private static Rectangle2D equalScales(Rectangle2D box, AxisSpec x, AxisSpec y) {
        double spanX = Math.abs(x.log() ? Math.log10(x.high()) - Math.log10(x.low()) : x.high() - x.low());
        double spanY = Math.abs(y.log() ? Math.log10(y.high()) - Math.log10(y.low()) : y.high() - y.low());
        if (!(spanX > 0) || !(spanY > 0) || !Double.isFinite(spanX / spanY)) {
            return box;
        }
        double wanted = spanX / spanY;
        if (box.getWidth() / box.getHeight() > wanted) {
            double w = box.getHeight() * wanted;
            return new Rectangle2D.Double(box.getCenterX() - w / 2, box.getY(), w, box.getHeight());
        }
        double h = box.getWidth() / wanted;
        return new Rectangle2D.Double(box.getX(), box.getCenterY() - h / 2, box.getWidth(), h);
    }
}
