package dev.pysandbox.charts;

/**
 * A figure that is not drawn, and why, in words for the person who wrote the code: it is over a limit, its
 * description is not one this renderer reads, or its call was stopped. {@link FigureRenderer} turns it into a
 * value; it never leaves the package.
 */
final class RenderRefused extends RuntimeException {
    RenderRefused(String message) {
        super(message, null, false, false);
    }
}
