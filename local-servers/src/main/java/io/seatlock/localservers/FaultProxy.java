package io.seatlock.localservers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy for fault tests, after Toxiproxy's model: {@link #down()} cuts every
 * connection and refuses new ones, {@link #blackhole()} keeps connections open but forwards nothing,
 * {@link #heal()} passes traffic again. Listens on 127.0.0.1 only.
 */
public final class FaultProxy implements AutoCloseable {

    private enum Mode { PASS, BLACKHOLE, DOWN }

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile Mode mode = Mode.PASS;

    public FaultProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread accept = new Thread(this::acceptLoop, "fault-proxy-" + server.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public String host() {
        return "127.0.0.1";
    }

    public void down() {
        mode = Mode.DOWN;
        closeAll();
    }

    public void blackhole() {
        mode = Mode.BLACKHOLE;
    }

    public void heal() {
        mode = Mode.PASS;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (mode == Mode.DOWN) {
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    while (mode == Mode.BLACKHOLE) {
                        Thread.sleep(5);
                    }
                    if (mode == Mode.DOWN) {
                        break;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // connection cut: that is the fault being injected, or the end of the test
            } finally {
                close(from);
                close(to);
            }
        }, "fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void closeAll() {
        sockets.forEach(FaultProxy::close);
        sockets.clear();
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        closeAll();
    }
}
