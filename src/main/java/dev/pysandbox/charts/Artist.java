package dev.pysandbox.charts;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * What an axes draws, named in the guest's JSON by {@code kind}. Positions are data coordinates unless a record
 * says otherwise ({@code x_in}/{@code y_in} {@code axes}: fractions of the axes box, as {@code axhline} spans it).
 * Colours are {@code #rrggbbaa}; widths, sizes and dashes in points. A NaN in a line's data breaks the line there,
 * as in matplotlib.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = Artist.Line.class, name = "line"),
        @JsonSubTypes.Type(value = Artist.Markers.class, name = "markers"),
        @JsonSubTypes.Type(value = Artist.Rects.class, name = "rects"),
        @JsonSubTypes.Type(value = Artist.Polygon.class, name = "polygon"),
        @JsonSubTypes.Type(value = Artist.Wedge.class, name = "wedge"),
        @JsonSubTypes.Type(value = Artist.Text.class, name = "text"),
        @JsonSubTypes.Type(value = Artist.Image.class, name = "image")})
public sealed interface Artist {

    /** How many points (or rectangles, or pixels) it draws: what {@link FigureCheck} counts against the limit. */
    long points();

    /**
     * A line through points, with a marker at each if {@code marker} names one.
     *
     * @param step {@code pre}, {@code post} or {@code mid} for a step plot ({@code drawstyle}), or null
     */
    record Line(
            @JsonProperty("x") double[] x,
            @JsonProperty("y") double[] y,
            @JsonProperty("x_in") String xIn,
            @JsonProperty("y_in") String yIn,
            @JsonProperty("color") String color,
            @JsonProperty("width") double width,
            @JsonProperty("dash") List<Double> dash,
            @JsonProperty("marker") String marker,
            @JsonProperty("marker_size") double markerSize,
            @JsonProperty("marker_face") String markerFace,
            @JsonProperty("marker_edge") String markerEdge,
            @JsonProperty("step") String step) implements Artist {
        @Override
        public long points() {
            return x == null ? 0 : x.length;
        }
    }

    /**
     * Markers with a size and colour each ({@code scatter}): {@code sizes} are areas in points squared, as
     * {@code s} is; a list of one applies to all.
     */
    record Markers(
            @JsonProperty("x") double[] x,
            @JsonProperty("y") double[] y,
            @JsonProperty("sizes") double[] sizes,
            @JsonProperty("colors") List<String> colors,
            @JsonProperty("marker") String marker,
            @JsonProperty("edge") String edge,
            @JsonProperty("edge_width") double edgeWidth) implements Artist {
        @Override
        public long points() {
            return x == null ? 0 : x.length;
        }
    }

    /** Rectangles (bars, histogram bins): corner {@code (x, y)}, width and height each, a fill colour each or one. */
    record Rects(
            @JsonProperty("x") double[] x,
            @JsonProperty("y") double[] y,
            @JsonProperty("w") double[] w,
            @JsonProperty("h") double[] h,
            @JsonProperty("faces") List<String> faces,
            @JsonProperty("edge") String edge,
            @JsonProperty("edge_width") double edgeWidth) implements Artist {
        @Override
        public long points() {
            return x == null ? 0 : x.length;
        }
    }

    /** A closed polygon ({@code fill_between}, a box of a box plot), filled and/or outlined. */
    record Polygon(
            @JsonProperty("x") double[] x,
            @JsonProperty("y") double[] y,
            @JsonProperty("face") String face,
            @JsonProperty("edge") String edge,
            @JsonProperty("edge_width") double edgeWidth) implements Artist {
        @Override
        public long points() {
            return x == null ? 0 : x.length;
        }
    }

    /** A slice of a pie: centre, radius, and the angles it runs between, in degrees anticlockwise from 3 o'clock. */
    record Wedge(
            @JsonProperty("cx") double cx,
            @JsonProperty("cy") double cy,
            @JsonProperty("r") double r,
            @JsonProperty("from") double from,
            @JsonProperty("to") double to,
            @JsonProperty("face") String face,
            @JsonProperty("edge") String edge,
            @JsonProperty("edge_width") double edgeWidth) implements Artist {
        @Override
        public long points() {
            return 1;
        }
    }

    /**
     * Text at a point, moved by {@code (dx, dy)} points ({@code annotate}'s {@code 'offset points'}): {@code align}
     * {@code left}/{@code center}/{@code right}, {@code valign} {@code bottom}/{@code center}/{@code top}/
     * {@code baseline}; an optional box behind it, and an optional arrow from it to a data point ({@code annotate}).
     */
    record Text(
            @JsonProperty("x") double x,
            @JsonProperty("y") double y,
            @JsonProperty("x_in") String xIn,
            @JsonProperty("y_in") String yIn,
            @JsonProperty("text") String text,
            @JsonProperty("size") double size,
            @JsonProperty("color") String color,
            @JsonProperty("bold") boolean bold,
            @JsonProperty("align") String align,
            @JsonProperty("valign") String valign,
            @JsonProperty("rotation") double rotation,
            @JsonProperty("box") String box,
            @JsonProperty("dx") double dx,
            @JsonProperty("dy") double dy,
            @JsonProperty("arrow") ArrowTo arrow) implements Artist {
        @Override
        public long points() {
            return 1;
        }
    }

    /** An arrow from a text's box to the data point {@code (x, y)} ({@code annotate}'s {@code arrowprops}). */
    record ArrowTo(
            @JsonProperty("x") double x,
            @JsonProperty("y") double y,
            @JsonProperty("color") String color,
            @JsonProperty("width") double width) {
    }

    /**
     * A raster in data coordinates ({@code imshow}): {@code rows} by {@code cols} opaque colours as
     * {@code 0xRRGGBB}, row 0 at the top, spread over {@code [left, right, bottom, top]}.
     */
    record Image(
            @JsonProperty("rows") int rows,
            @JsonProperty("cols") int cols,
            @JsonProperty("pixels") int[] pixels,
            @JsonProperty("extent") double[] extent) implements Artist {
        @Override
        public long points() {
            return pixels == null ? 0 : pixels.length;
        }
    }
}
