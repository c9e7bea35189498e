package io.seatlock.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The crowd's load driver when pages stream the map: one plain HTTP/1.1 GET per viewer that opens a server-sent event
 * stream, all read by one thread over a selector, as a load tool would. It counts the maps that arrive (an event's
 * {@code id:} line) and the bytes, and reads everything at once, so no stream is ever slow on this side.
 */
final class StreamingViews implements AutoCloseable {

    private static final byte[] EVENT_ID = "\nid: ".getBytes(StandardCharsets.US_ASCII);

    private final Selector selector = Selector.open();
    private final Thread reader;
    private final AtomicLong maps = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong ended = new AtomicLong();
    private volatile boolean running = true;

    StreamingViews(List<InetSocketAddress> replicas, String path, int viewers, String threadName) throws IOException {
        for (int i = 0; i < viewers; i++) {
            InetSocketAddress replica = replicas.get(i % replicas.size());
            SocketChannel channel = SocketChannel.open();
            channel.socket().connect(replica, 10_000);
            channel.socket().setTcpNoDelay(true);
            channel.write(ByteBuffer.wrap(("GET " + path + " HTTP/1.1\r\nHost: " + replica.getHostString() + ":" + replica.getPort()
                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ, new int[1]); // how much of EVENT_ID the last bytes matched
        }
        reader = new Thread(this::read, threadName);
        reader.setDaemon(true);
        reader.start();
    }

    /** Maps received so far, over all streams. */
    long maps() {
        return maps.get();
    }

    long bytes() {
        return bytes.get();
    }

    /** Streams the replicas ended (or that failed) so far. */
    long ended() {
        return ended.get();
    }

    private void read() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
        byte[] chunk = new byte[buffer.capacity()];
        while (running) {
            try {
                selector.select(100);
            } catch (IOException e) {
                return;
            }
            for (SelectionKey key : selector.selectedKeys()) {
                SocketChannel channel = (SocketChannel) key.channel();
                int[] matched = (int[]) key.attachment();
                try {
                    int n;
                    while ((n = channel.read(buffer.clear())) > 0) {
                        bytes.addAndGet(n);
                        buffer.flip().get(chunk, 0, n);
                        for (int i = 0; i < n; i++) {
                            matched[0] = chunk[i] == EVENT_ID[matched[0]] ? matched[0] + 1 : chunk[i] == EVENT_ID[0] ? 1 : 0;
                            if (matched[0] == EVENT_ID.length) {
                                maps.incrementAndGet();
                                matched[0] = 0;
                            }
                        }
                    }
                    if (n < 0) {
                        end(key);
                    }
                } catch (IOException e) {
                    end(key);
                }
            }
            selector.selectedKeys().clear();
        }
    }

    private void end(SelectionKey key) {
        ended.incrementAndGet();
        key.cancel();
        try {
            key.channel().close();
        } catch (IOException e) {
            // a stream we are done with
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        reader.join(10_000);
        for (SelectionKey key : selector.keys()) {
            try {
                key.channel().close();
            } catch (IOException e) {
                // closing; nothing left to do
            }
        }
        try {
            selector.close();
        } catch (IOException e) {
            // closing; nothing left to do
        }
    }
}
