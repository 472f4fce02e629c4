package dev.pysandbox.charts;

import java.awt.geom.Rectangle2D;

import dev.pysandbox.charts.FigureSpec.AxesSpec;
import dev.pysandbox.charts.FigureSpec.AxisSpec;

/**
 * An axes placed on the figure: its box in pixels, and how its data coordinates map into the box.
 *
 * @param colorbar the box of its colour bar, or null when it has none
 */
record AxesGeometry(AxesSpec spec, Rectangle2D box, Rectangle2D colorbar) {

    /** Where a value falls along an axis, from 0 at its {@code low} end to 1 at its {@code high} end. */
    static double fraction(AxisSpec axis, double value) {
        if (axis.log()) {
            return (Math.log10(value) - Math.log10(axis.low())) / (Math.log10(axis.high()) - Math.log10(axis.low()));
        }
        return (value - axis.low()) / (axis.high() - axis.low());
    }

    /** The pixel column of {@code value}: a data x, or a fraction of the box when {@code in} is {@code axes}. */
    double px(double value, String in) {
        double f = "axes".equals(in) ? value : fraction(spec.x(), value);
        return box.getX() + f * box.getWidth();
    }

    /** The pixel row of {@code value}: a data y, or a fraction of the box when {@code in} is {@code axes}. */
    double py(double value, String in) {
        double f = "axes".equals(in) ? value : fraction(spec.y(), value);
        return box.getMaxY() - f * box.getHeight();
    }

    double px(double value) {
        return px(value, "data");
    }

    double py(double value) {
        return py(value, "data");
    }
}
