package dev.pysandbox.supervisor;

/**
 * The workers' OS sandbox layer is asked for ({@code worker.os-sandbox=auto} on Linux, or {@code required}) and
 * cannot run here. Its message is one line for the operator: what is wrong and how to fix it, or how to run
 * without the layer knowingly. The server does not start (Main).
 */
public final class OsSandboxUnavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OsSandboxUnavailable(String message) {
        super(message);
    }
}
