package dev.pysandbox.worker;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Entry point of a worker JVM, started by the supervisor. The process's stdout carries the protocol and
 * nothing else, so {@code System.out} is pointed at stderr before anything can print to it.
 */
public final class WorkerMain {
    /** The exit code of a worker started without its settings, or with one that does not parse. */
    static final int BAD_SETTINGS = 2;

    private WorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        WorkerSettings settings;
        try {
            settings = WorkerSettings.fromSystemProperties();
        } catch (IllegalArgumentException e) {
            // The supervisor relays stderr lines that start with "worker:" to its log, and reports a worker that
            // exits before it is ready.
            System.err.println("worker: cannot start: " + e.getMessage());
            System.exit(BAD_SETTINGS);
            return;
        }
        new Worker(settings, protocol).serve(System.in);
        // stdin closed: the supervisor is gone or wants us gone; don't wait for a guest thread that may be stuck.
        System.exit(0);
    }
}
