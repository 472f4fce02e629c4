package dev.pysandbox.charts;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One figure as the guest's {@code matplotlib} hands it over to be drawn: sizes, the axes, and in each axes what
 * to draw in data coordinates. The guest has done matplotlib's part (colours resolved, limits scaled, ticks placed
 * and labelled, bars and bins and wedges computed); the renderer does what needs the font and the pixels: where
 * each axes goes on the figure, how much room its text takes, and the drawing itself.
 *
 * <p>Read from guest JSON, so nothing here is trusted: {@link FigureCheck} holds a spec to the limits before any
 * of it is drawn. Colours are {@code #rrggbbaa}; lengths on the page are in points (1/72 inch), as matplotlib's are.
 *
 * @param width     the figure's width in inches
 * @param height    its height in inches
 * @param dpi       pixels per inch of the PNG
 * @param facecolor the figure's background
 * @param suptitle  a title over all axes, or null
 * @param layout    where the axes go
 * @param axes      the axes, drawn in this order
 */
public record FigureSpec(
        @JsonProperty("width") double width,
        @JsonProperty("height") double height,
        @JsonProperty("dpi") double dpi,
        @JsonProperty("facecolor") String facecolor,
        @JsonProperty("suptitle") Label suptitle,
        @JsonProperty("layout") Layout layout,
        @JsonProperty("axes") List<AxesSpec> axes) {

    public FigureSpec {
        axes = axes == null ? List.of() : axes;
        layout = layout == null ? Layout.DEFAULT : layout;
    }

    /**
     * matplotlib's subplot parameters, as fractions of the figure: the defaults are {@code figure.subplot.*}.
     *
     * @param tight whether {@code tight_layout()} (or a constrained layout) asked for the margins to fit the text
     *              instead
     * @param crop  whether {@code savefig(bbox_inches='tight')} asked for the figure cut to what is drawn
     */
    public record Layout(
            @JsonProperty("left") double left,
            @JsonProperty("right") double right,
            @JsonProperty("bottom") double bottom,
            @JsonProperty("top") double top,
            @JsonProperty("wspace") double wspace,
            @JsonProperty("hspace") double hspace,
            @JsonProperty("tight") boolean tight,
            @JsonProperty("crop") boolean crop) {
        public static final Layout DEFAULT = new Layout(0.125, 0.9, 0.11, 0.88, 0.2, 0.2, false, false);
    }

    /**
     * A line of text: its words, size in points, colour and weight.
     */
    public record Label(
            @JsonProperty("text") String text,
            @JsonProperty("size") double size,
            @JsonProperty("color") String color,
            @JsonProperty("bold") boolean bold) {
    }

    /**
     * Where an axes sits in a grid of {@code rows} by {@code cols} cells (its top-left cell, and how many cells it
     * spans), as {@code subplots} and {@code add_subplot} place them.
     */
    public record Cell(
            @JsonProperty("rows") int rows,
            @JsonProperty("cols") int cols,
            @JsonProperty("row") int row,
            @JsonProperty("col") int col,
            @JsonProperty("rowspan") int rowspan,
            @JsonProperty("colspan") int colspan) {
    }

    /**
     * One axes.
     *
     * @param cell      where it sits in its grid; null when {@code rect} places it
     * @param rect      {@code [left, bottom, width, height]} as fractions of the figure ({@code add_axes}), or null
     * @param twinOf    the index of the axes whose box this one shares ({@code twinx}), or -1
     * @param facecolor its background
     * @param spines    which of its four sides are drawn ({@code left}, {@code right}, {@code bottom}, {@code top})
     * @param visible   false after {@code axis('off')}: no spines, ticks or background, only the artists
     * @param equal     whether a unit of x takes as many pixels as a unit of y (the box shrinks to make it so)
     * @param x         the horizontal axis
     * @param y         the vertical axis
     * @param titles    its titles by place: {@code left}, {@code center}, {@code right}
     * @param grid      its grid lines, or null for none
     * @param legend    its legend, or null for none
     * @param colorbar  a colour bar beside it, or null
     * @param artists   what it draws, in order
     */
    public record AxesSpec(
            @JsonProperty("cell") Cell cell,
            @JsonProperty("rect") List<Double> rect,
            @JsonProperty("twin_of") int twinOf,
            @JsonProperty("facecolor") String facecolor,
            @JsonProperty("spines") List<String> spines,
            @JsonProperty("visible") boolean visible,
            @JsonProperty("equal") boolean equal,
            @JsonProperty("x") AxisSpec x,
            @JsonProperty("y") AxisSpec y,
            @JsonProperty("titles") Titles titles,
            @JsonProperty("grid") Grid grid,
            @JsonProperty("legend") LegendSpec legend,
            @JsonProperty("colorbar") ColorbarSpec colorbar,
            @JsonProperty("artists") List<Artist> artists) {
        public AxesSpec {
            artists = artists == null ? List.of() : artists;
            spines = spines == null ? List.of() : spines;
        }
    }

    /**
     * One axis of an axes.
     *
     * @param low      the value at the left (or bottom) end; larger than {@code high} for an inverted axis
     * @param high     the value at the other end
     * @param log      whether the scale is logarithmic (base 10)
     * @param ticks    its tick marks, each with its label
     * @param label    the axis label, or null
     * @param rotation the tick labels' rotation in degrees, anticlockwise
     * @param align    how rotated tick labels are anchored: {@code center}, {@code right} or {@code left}
     * @param side     where the axis is drawn: {@code left}/{@code right} for y, {@code bottom}/{@code top} for x
     * @param offset   text shown at the axis end for labels written without their common factor ({@code 1e6}), or null
     */
    public record AxisSpec(
            @JsonProperty("low") double low,
            @JsonProperty("high") double high,
            @JsonProperty("log") boolean log,
            @JsonProperty("ticks") List<Tick> ticks,
            @JsonProperty("label") Label label,
            @JsonProperty("rotation") double rotation,
            @JsonProperty("align") String align,
            @JsonProperty("side") String side,
            @JsonProperty("offset") String offset) {
        public AxisSpec {
            ticks = ticks == null ? List.of() : ticks;
        }
    }

    public record Tick(@JsonProperty("at") double at, @JsonProperty("label") String label) {
    }

    public record Titles(@JsonProperty("left") Label left, @JsonProperty("center") Label center,
            @JsonProperty("right") Label right) {
    }

    /** Grid lines at the major ticks of {@code x} and/or {@code y}. */
    public record Grid(
            @JsonProperty("x") boolean x,
            @JsonProperty("y") boolean y,
            @JsonProperty("color") String color,
            @JsonProperty("width") double width,
            @JsonProperty("dash") List<Double> dash) {
    }

    /**
     * A legend.
     *
     * @param loc     matplotlib's location name ({@code best}, {@code upper right} ...)
     * @param title   its title, or null
     * @param columns how many columns it lays its entries in
     * @param frame   whether it has a box
     * @param size    its text's size in points
     * @param anchor  {@code bbox_to_anchor}'s point in axes fractions, or null
     */
    public record LegendSpec(
            @JsonProperty("loc") String loc,
            @JsonProperty("title") String title,
            @JsonProperty("columns") int columns,
            @JsonProperty("frame") boolean frame,
            @JsonProperty("size") double size,
            @JsonProperty("anchor") List<Double> anchor,
            @JsonProperty("entries") List<LegendEntry> entries) {
        public LegendSpec {
            entries = entries == null ? List.of() : entries;
        }
    }

    /**
     * A legend's entry: its label and the sample drawn beside it, a line (with its marker) or a filled patch.
     */
    public record LegendEntry(
            @JsonProperty("label") String label,
            @JsonProperty("patch") boolean patch,
            @JsonProperty("color") String color,
            @JsonProperty("edge") String edge,
            @JsonProperty("width") double width,
            @JsonProperty("dash") List<Double> dash,
            @JsonProperty("marker") String marker,
            @JsonProperty("marker_face") String markerFace,
            @JsonProperty("line") boolean line) {
    }

    /**
     * A colour bar beside an axes: its colours from low to high, the values at each end, and its ticks.
     */
    public record ColorbarSpec(
            @JsonProperty("colors") List<String> colors,
            @JsonProperty("low") double low,
            @JsonProperty("high") double high,
            @JsonProperty("ticks") List<Tick> ticks,
            @JsonProperty("label") Label label) {
        public ColorbarSpec {
            colors = colors == null ? List.of() : colors;
            ticks = ticks == null ? List.of() : ticks;
        }
    }
}
