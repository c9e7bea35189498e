package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.spi.RedisCommand;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * No reply is read by the wrong caller, also when reading one failed half-way with an {@link Error}: here a reply
 * nested deeper than the caller's stack (a {@link StackOverflowError} in Jedis' recursive parser) leaves the rest of
 * it unread. Before, the connection went back to the pool like that, and the next caller read the rest as its answer.
 */
class JedisUnreadReplyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aConnectionWhoseReplyWasLeftHalfReadIsNotLentAgain() throws Exception {
        try (NestingServer server = new NestingServer();
             JedisTransport transport = JedisTransport.standalone(new HostAndPort("127.0.0.1", server.port()),
                     DefaultJedisClientConfig.builder().build(), RedisTimeouts.of(TIMEOUT))) {
            Throwable failure = catchThrowable(() -> transport.call(new RedisCommand.Get("deep"),
                    System.nanoTime() + TIMEOUT.toNanos(), () -> { }));
            assertThat(failure).as("a VirtualMachineError reaches the caller as it is").isInstanceOf(StackOverflowError.class);

            String answer = transport.call(new RedisCommand.Ping(), System.nanoTime() + TIMEOUT.toNanos(), () -> { })
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

            assertThat(answer).isEqualTo("PONG");
            assertThat(server.commands).as("the PING went out on a new connection").containsSubsequence(
                    "1 GET", "2 PING").doesNotContain("1 PING");
        }
    }

    /**
     * Speaks just enough RESP: answers GET with an array nested {@value #DEPTH} deep, PING with PONG, anything else
     * (the client's hello) with OK. Records each command with the number of the connection it came on.
     */
    private static final class NestingServer implements AutoCloseable {

        private static final int DEPTH = 300_000;

        final List<String> commands = new CopyOnWriteArrayList<>();
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> accepted = new CopyOnWriteArrayList<>();

        NestingServer() throws IOException {
            Thread acceptor = new Thread(this::accept, "nesting-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        private void accept() {
            try {
                while (true) {
                    Socket socket = listener.accept();
                    accepted.add(socket);
                    int number = accepted.size();
                    Thread serve = new Thread(() -> serve(socket, number), "nesting-server-" + number);
                    serve.setDaemon(true);
                    serve.start();
                }
            } catch (IOException closed) {
                // the test is over
            }
        }

        private void serve(Socket socket, int number) {
            try (socket; InputStream in = new BufferedInputStream(socket.getInputStream());
                 OutputStream out = socket.getOutputStream()) {
                while (true) {
                    List<String> command = readCommand(in);
                    String name = command.get(0).toUpperCase();
                    commands.add(number + " " + name);
                    byte[] reply = switch (name) {
                        case "GET" -> ("*1\r\n".repeat(DEPTH) + "$-1\r\n").getBytes(StandardCharsets.US_ASCII);
                        case "PING" -> "+PONG\r\n".getBytes(StandardCharsets.US_ASCII);
                        default -> "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
                    };
                    out.write(reply);
                    out.flush();
                }
            } catch (IOException | RuntimeException closed) {
                // the client went away or the test is over
            }
        }

        /** One command: {@code *<n>} then n bulk strings. */
        private static List<String> readCommand(InputStream in) throws IOException {
            String header = readLine(in);
            if (!header.startsWith("*")) {
                throw new IOException("not a command: " + header);
            }
            int count = Integer.parseInt(header.substring(1));
            List<String> parts = new java.util.ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int length = Integer.parseInt(readLine(in).substring(1));
                parts.add(new String(in.readNBytes(length), StandardCharsets.UTF_8));
                readLine(in);
            }
            return parts;
        }

        private static String readLine(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("closed");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }
}
