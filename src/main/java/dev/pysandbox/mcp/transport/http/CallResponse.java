package dev.pysandbox.mcp.transport.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The answer to one {@code tools/call} that runs outside the servlet thread: either a server-sent event
 * stream (notifications, keep-alive comments, then the response as the last event) or, for a client that
 * accepts only JSON, one JSON body at the end. Writes come from the call's thread, the keep-alive timer and
 * the progress timer, so each is whole and under this object's lock; once the answer is written or the call
 * abandoned, nothing more is.
 */
final class CallResponse {
    private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

    private final AsyncContext async;
    private final HttpServletResponse response;
    private final boolean events;
    private boolean started;
    private boolean finished;

    /**
     * An answer not begun: nothing goes out until {@link #start} or the first write, so that a proxy may still send
     * the request to another replica if this one dies first.
     */
    CallResponse(AsyncContext async, HttpServletResponse response, boolean events) {
        this.async = async;
        this.response = response;
        this.events = events;
    }

    /**
     * Begins an event stream's answer: its headers go out now, and from here on a proxy can only pass it on. For a
     * plain JSON answer, which is one body at the end, there is nothing to begin.
     */
    synchronized void start() {
        if (!events || started || finished) {
            return;
        }
        eventStreamHeaders();
        try {
            response.flushBuffer();
        } catch (IOException e) {
            // the client is gone: the next write says so
        }
    }

    private void eventStreamHeaders() {
        started = true;
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-cache, no-transform");
        // nginx and some ingress controllers buffer responses unless told not to (2026-07-28 spec).
        response.setHeader("X-Accel-Buffering", "no");
    }

    boolean events() {
        return events;
    }

    /** Sends a JSON-RPC notification as an event; false if the client is gone (or the answer is plain JSON). */
    synchronized boolean notification(byte[] json) {
        if (!events || finished) {
            return false;
        }
        start();
        return write(event(json));
    }

    /** A comment line that keeps proxies from closing an idle stream; false if the client is gone. */
    synchronized boolean keepAlive() {
        if (finished) {
            return true;
        }
        start();
        return write(KEEP_ALIVE);
    }

    /** Writes the response and ends the exchange; false if the client was gone. */
    synchronized boolean answer(byte[] json) {
        if (finished) {
            return false;
        }
        finished = true;
        boolean written;
        if (events && started) {
            written = write(event(json));
        } else if (events) {
            // Nothing sent yet: headers and the one event leave in one write, with a length instead of chunks. A
            // replica killed before it is an empty response, which a proxy may send elsewhere; after it, the client
            // has the whole answer. Flushing the headers first left an instant in which a kill cut a begun answer
            // (ScaleOutIT's calls without a session at the kill).
            byte[] event = event(json);
            eventStreamHeaders();
            response.setContentLength(event.length);
            written = write(event);
        } else {
            response.setStatus(HttpServletResponse.SC_OK);
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            response.setContentLength(json.length);
            written = write(json);
        }
        async.complete();
        return written;
    }

    /** Ends the exchange without an answer: the call was cancelled, or the client went away. */
    synchronized void abandon() {
        if (!finished) {
            finished = true;
            try {
                async.complete();
            } catch (IllegalStateException e) {
                // Already completed by the container after an error: nothing left to end.
            }
        }
    }

    private boolean write(byte[] bytes) {
        try {
            OutputStream out = response.getOutputStream();
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException | IllegalStateException e) {
            return false;
        }
    }

    private static byte[] event(byte[] json) {
        // JSON from the SDK's mapper has no raw newlines, so one data line carries the whole message.
        byte[] head = "event: message\ndata: ".getBytes(StandardCharsets.US_ASCII);
        byte[] bytes = new byte[head.length + json.length + 2];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(json, 0, bytes, head.length, json.length);
        bytes[bytes.length - 2] = '\n';
        bytes[bytes.length - 1] = '\n';
        return bytes;
    }
}
