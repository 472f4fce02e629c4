package dev.pysandbox.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy that closes a connection on which no byte moved either way for {@code idle}: what cloud load
 * balancers and reverse proxies do (often after 60 s), scaled down for a test.
 */
final class IdleCuttingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final long idleNanos;

    IdleCuttingProxy(int targetPort, Duration idle) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        this.idleNanos = idle.toNanos();
        Thread acceptor = new Thread(this::acceptLoop, "idle-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                AtomicLong lastActivity = new AtomicLong(System.nanoTime());
                start(() -> pump(client, server, lastActivity));
                start(() -> pump(server, client, lastActivity));
                start(() -> watch(client, server, lastActivity));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void start(Runnable task) {
        Thread thread = new Thread(task, "idle-proxy-conn");
        thread.setDaemon(true);
        thread.start();
    }

    private static void pump(Socket from, Socket to, AtomicLong lastActivity) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                lastActivity.set(System.nanoTime());
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void watch(Socket client, Socket server, AtomicLong lastActivity) {
        while (!client.isClosed() && !server.isClosed()) {
            if (System.nanoTime() - lastActivity.get() > idleNanos) {
                closeQuietly(client);
                closeQuietly(server);
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
