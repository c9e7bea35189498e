package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The very first call of a new lock client, in a fresh JVM (where the client library and Netty are not loaded
 * yet), on a black-holed Redis, ends within its bound: the connect timeout and the command timeout (a call made
 * before the lock ever reached Redis has both) plus the 50 ms slack, asserted with room for a busy machine's
 * scheduling. Not before the connect timeout either: a cold first call is not taken for a Redis that is down.
 */
class FirstCallBoundTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** {@link TestTransports#timeouts}: the test clients connect within their command timeout. */
    private static final Duration CONNECT_TIMEOUT = TIMEOUT;

    @Test
    void theFirstCallOfAFreshProcessOnABlackHoledRedisEndsWithinItsBound() throws Exception {
        List<Long> firstCalls = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), FirstCallBoundTest.class.getName())
                    .redirectErrorStream(true).start();
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as(output).isZero();
            String line = output.lines().filter(l -> l.startsWith("first-call-ms=")).findFirst().orElseThrow(
                    () -> new AssertionError("no measurement in:\n" + output));
            firstCalls.add(Long.parseLong(line.substring("first-call-ms=".length())));
        }
        // the better of two fresh processes: one stalled by a busy neighbour does not fail the build
        assertThat(firstCalls.stream().mapToLong(Long::longValue).min().orElseThrow())
                .as("first call in ms, two fresh JVMs: %s", firstCalls)
                .isGreaterThanOrEqualTo(CONNECT_TIMEOUT.toMillis())
                .isLessThan(CONNECT_TIMEOUT.plus(TIMEOUT).toMillis() + 250);
    }

    /** The child: a port that accepts and never answers, a new client, one timed call. */
    public static void main(String[] args) throws IOException {
        try (ServerSocket blackHole = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> held = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                while (true) {
                    try {
                        held.add(blackHole.accept());
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (RedisLockClient lock = TestTransports.standalone(RedisURI.create("127.0.0.1", blackHole.getLocalPort()),
                    TIMEOUT, RedisLockSettings.defaults(), LockListener.NOOP)) {
                long t0 = System.nanoTime();
                try {
                    lock.tryAcquire("first", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK);
                    System.out.println("unexpected: granted");
                } catch (LockUnavailableException expected) {
                    System.out.println("first-call-ms=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                }
            }
        }
        System.exit(0);
    }
}
