package dev.pysandbox.charts;

/**
 * How a render learns it must stop: the call's thread was interrupted (its timeout, a cancel), or the render ran
 * past its own deadline. Checked between artists and between figures, so a render never outlives its call for
 * longer than one artist takes.
 */
@FunctionalInterface
interface Interrupts {
    /** @throws RenderRefused when the render must stop */
    void check();

    /** Stops at an interrupt of the calling thread, or at {@code deadlineNanos} ({@link System#nanoTime}). */
    static Interrupts until(long deadlineNanos) {
        return () -> {
            if (Thread.currentThread().isInterrupted()) {
                throw new RenderRefused("the call was stopped while its figure was drawn");
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new RenderRefused("drawing the figure took longer than the call had left");
            }
        };
    }
}
