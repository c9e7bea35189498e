package io.seatlock.test;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy to put between your application and Redis or PostgreSQL in a test, after
 * Toxiproxy's model: {@link #heal()} passes traffic, {@link #delay(Duration)} passes it late,
 * {@link #blackhole()} keeps connections open but forwards nothing (a frozen or partitioned peer),
 * {@link #down()} cuts every connection now and refuses new ones, and {@link #cutAfterCommitFollowing}
 * cuts a PostgreSQL link right after the server committed. Listens on 127.0.0.1 only.
 *
 * <pre>{@code
 * try (FaultProxy proxy = new FaultProxy("127.0.0.1", 6379)) {
 *     // point the application at proxy.host():proxy.port(), then
 *     proxy.blackhole();   // every call now costs its timeout
 *     proxy.heal();
 * }
 * }</pre>
 */
public final class FaultProxy implements AutoCloseable {

    private enum Mode { PASS, BLACKHOLE, DOWN }

    /** How long a connection to the target may take before the client's is closed. */
    private static final Duration TARGET_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    /** One flag per open connection: set, the connection is forgotten ({@link #forgetOpenConnections()}). */
    private final Set<AtomicBoolean> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong stalledReads = new AtomicLong();
    private final ByteRecorder fromClients = new ByteRecorder();
    private volatile Mode mode = Mode.PASS;
    private volatile long delayNanos;
    private volatile @Nullable String cutAfterCommitOf;
    private volatile @Nullable String blackholeAfter;

    /**
     * Starts a proxy on a free loopback port.
     *
     * @param targetHost where traffic goes
     * @param targetPort its port
     * @throws IOException if no port could be bound
     */
    public FaultProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        // a backlog for many clients connecting at once, where the default 50 would drop their SYNs
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
        Thread accept = new Thread(this::acceptLoop, "fault-proxy-" + server.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    /**
     * Where clients connect.
     *
     * @return the proxy's port
     */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Where clients connect.
     *
     * @return {@code 127.0.0.1}
     */
    public String host() {
        return "127.0.0.1";
    }

    /** Cuts every connection now and refuses new ones, until {@link #heal()}. */
    public void down() {
        mode = Mode.DOWN;
        closeAll();
    }

    /** Keeps connections (and new ones) open but forwards nothing either way, until {@link #heal()}. */
    public void blackhole() {
        mode = Mode.BLACKHOLE;
    }

    /**
     * Every connection open now goes dark for good, as through a NAT or load balancer that dropped it without a
     * word: nothing passes on it either way, not even its close, and {@link #heal()} does not bring it back. New
     * connections pass. Only a client that checks its idle connections notices.
     */
    public void forgetOpenConnections() {
        open.forEach(forgotten -> forgotten.set(true));
    }

    /** Passes traffic again, without delay. */
    public void heal() {
        delayNanos = 0;
        mode = Mode.PASS;
    }

    /**
     * Passes traffic, each chunk {@code latency} late in each direction (a slow or distant link).
     *
     * @param latency added to every read forwarded
     */
    public void delay(Duration latency) {
        delayNanos = latency.toNanos();
        mode = Mode.PASS;
    }

    /**
     * Arms a one-shot cut for PostgreSQL: once a client has sent {@code marker} (a statement of the
     * transaction to hit), the server's reply to the COMMIT that follows (its {@code COMMIT} command tag)
     * is dropped and every connection cut: the transaction is committed, and the client cannot know.
     *
     * @param marker text of a statement the client sends before the commit to hit
     */
    public void cutAfterCommitFollowing(String marker) {
        cutAfterCommitOf = marker;
    }

    /**
     * Arms a one-shot black hole: the client's message containing {@code marker} still reaches the server
     * (which runs it, taking its row locks), and from then on nothing passes either way.
     *
     * @param marker text of the message after which the link goes dark
     */
    public void blackholeAfterClientSends(String marker) {
        blackholeAfter = marker;
    }

    /**
     * How many reads the black hole has swallowed so far: above its earlier value, a request is in flight.
     *
     * @return the count
     */
    public long stalledReads() {
        return stalledReads.get();
    }

    /**
     * Everything clients sent through this proxy (the first MiB), for asserting what crossed the wire.
     *
     * @return the bytes as Latin-1 text
     */
    public String sentByClients() {
        return fromClients.text();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (mode == Mode.DOWN) {
                    client.close();
                    continue;
                }
                sockets.add(client);
                Thread connecting = new Thread(() -> bridge(client), "fault-proxy-connect");
                connecting.setDaemon(true);
                connecting.start();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    /**
     * Connects {@code client} to the target, on a thread of its own so that a target slow to answer holds up no other
     * client. A target that refuses, or does not answer within {@link #TARGET_CONNECT_TIMEOUT}, has the client's
     * connection closed, as the target's refusal would: left open, it looked like a black hole.
     */
    private void bridge(Socket client) {
        Socket upstream = new Socket();
        try {
            upstream.connect(new InetSocketAddress(targetHost, targetPort), (int) TARGET_CONNECT_TIMEOUT.toMillis());
        } catch (IOException e) {
            close(upstream);
            sockets.remove(client);
            close(client);
            return;
        }
        sockets.add(upstream);
        AtomicBoolean markerSent = new AtomicBoolean();
        AtomicBoolean forgotten = new AtomicBoolean();
        open.add(forgotten);
        pump(client, upstream, fromClients, markerSent, forgotten);
        pump(upstream, client, null, markerSent, forgotten);
    }

    private void pump(Socket from, Socket to, @Nullable ByteRecorder recorder,
                      AtomicBoolean markerSent, AtomicBoolean forgotten) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (recorder != null) {
                        recorder.add(buffer, n);
                        String sent = new String(buffer, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
                        String marker = cutAfterCommitOf;
                        if (marker != null && sent.contains(marker)) {
                            markerSent.set(true);
                        }
                        String dark = blackholeAfter;
                        if (dark != null && sent.contains(dark)) {
                            blackholeAfter = null;
                            out.write(buffer, 0, n);
                            out.flush();
                            mode = Mode.BLACKHOLE;
                            continue;
                        }
                    } else if (markerSent.get() && cutAfterCommitOf != null
                            && new String(buffer, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1).contains("COMMIT")) {
                        cutAfterCommitOf = null; // the server has committed; its answer never arrives
                        closeAll();
                        return;
                    }
                    if (dark(forgotten)) {
                        stalledReads.incrementAndGet();
                    }
                    while (dark(forgotten) && !server.isClosed()) {
                        Thread.sleep(5);
                    }
                    if (mode == Mode.DOWN) {
                        break;
                    }
                    long delay = delayNanos;
                    if (delay > 0) {
                        java.util.concurrent.TimeUnit.NANOSECONDS.sleep(delay);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // connection cut: that is the fault being injected, or the end of the test
            } finally {
                // A black hole swallows a close too: the far side must not learn of it until the link heals
                // (a forgotten connection's, until the proxy closes).
                awaitNoBlackhole(forgotten);
                open.remove(forgotten);
                close(from);
                close(to);
            }
        }, "fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Nothing passes on a connection while the proxy is a black hole or once the connection is forgotten. */
    private boolean dark(AtomicBoolean forgotten) {
        return mode == Mode.BLACKHOLE || forgotten.get();
    }

    private void awaitNoBlackhole(AtomicBoolean forgotten) {
        try {
            while (dark(forgotten) && !server.isClosed()) {
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

    /**
     * Stops listening and cuts every connection.
     *
     * @throws IOException if the listening socket could not be closed
     */
    @Override
    public void close() throws IOException {
        server.close();
        closeAll();
    }

    /** Bounded (1 MiB) so a long test cannot fill the heap. */
    private static final class ByteRecorder {
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

        synchronized void add(byte[] buffer, int length) {
            if (bytes.size() < (1 << 20)) {
                bytes.write(buffer, 0, length);
            }
        }

        synchronized String text() {
            return bytes.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }
}
