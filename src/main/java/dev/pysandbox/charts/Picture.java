package dev.pysandbox.charts;

/** A drawn figure: its format, its bytes, and its size in pixels. */
public record Picture(ChartFormat format, byte[] bytes, int width, int height) {
}
