package io.seatlock.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The crowd's load driver: plain HTTP/1.1 GETs over kept-alive sockets to one replica, as wrk drives a server. The
 * JDK's HttpClient spends more CPU per view than the replica does to answer it; on a 2-core machine that cost,
 * which real viewers pay on their own devices, would be taken from the buyers. One view borrows one connection.
 */
final class KeepAliveViews implements AutoCloseable {

    /** What one view got: the status and the ETag header, if any. */
    record Answer(int status, String etag) {
    }

    private final String host;
    private final int port;
    private final int timeoutMillis;
    private final BlockingQueue<Connection> idle;

    KeepAliveViews(String host, int port, int connections, int timeoutMillis) {
        this.host = host;
        this.port = port;
        this.timeoutMillis = timeoutMillis;
        this.idle = new ArrayBlockingQueue<>(connections);
    }

    /** GET {@code path} with an optional If-None-Match; a connection that failed is closed, never reused. */
    Answer get(String path, String ifNoneMatch) throws IOException {
        Connection connection = idle.poll();
        if (connection == null) {
            connection = new Connection();
        }
        try {
            Answer answer = connection.get(path, ifNoneMatch);
            if (connection.reusable && idle.offer(connection)) {
                return answer;
            }
            connection.close();
            return answer;
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    @Override
    public void close() {
        Connection connection;
        while ((connection = idle.poll()) != null) {
            connection.close();
        }
    }

    private final class Connection {
        private final Socket socket = new Socket();
        private final InputStream in;
        private final OutputStream out;
        private final byte[] discard = new byte[16 * 1024];
        private boolean reusable = true;

        Connection() throws IOException {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = socket.getOutputStream();
        }

        Answer get(String path, String ifNoneMatch) throws IOException {
            String request = "GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nAccept: application/json\r\n"
                    + (ifNoneMatch == null ? "" : "If-None-Match: " + ifNoneMatch + "\r\n") + "\r\n";
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String statusLine = line();
            if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
                throw new IOException("not an HTTP/1.1 answer: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = status == 304 || status == 204 ? 0 : -1;
            String etag = null;
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                String name = header.substring(0, Math.max(0, colon)).toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "etag" -> etag = value;
                    case "connection" -> reusable &= !value.equalsIgnoreCase("close");
                    case "transfer-encoding" -> throw new IOException("chunked answers are not read here: " + path);
                    default -> { }
                }
            }
            if (length < 0) {
                throw new IOException("no Content-Length in the answer to " + path);
            }
            skip(length);
            return new Answer(status, etag);
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder(64);
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("connection closed mid-answer");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        private void skip(long bytes) throws IOException {
            while (bytes > 0) {
                int read = in.read(discard, 0, (int) Math.min(discard.length, bytes));
                if (read < 0) {
                    throw new IOException("connection closed mid-body");
                }
                bytes -= read;
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a socket we are done with; nothing left to do
            }
        }
    }
}
