package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockStoreRefusedException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.LocalServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A call that cannot use Redis says why in words an operator acts on, on every transport: the migration gate's
 * fallback line and the start-up log quote it.
 */
class UnavailableReasonTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("UnavailableReasonTest");

    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @Test
    void nothingListening() throws IOException {
        RedisURI nowhere = RedisURI.create("127.0.0.1", LocalServers.freePort());
        try (RedisLockClient lock = TestTransports.standalone(nowhere, TIMEOUT, settings(), LockListener.NOOP)) {
            assertThatThrownBy(() -> lock.tryAcquire("refused", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK))
                    .isInstanceOf(LockUnavailableException.class).hasMessageContaining(": connection refused (")
                    .isNotInstanceOf(LockStoreRefusedException.class); // an outage heals by itself
        }
    }

    @Test
    void aLoginRedisTurnsDown() {
        RedisURI stranger = RedisURI.builder().withHost(servers.redis().host()).withPort(servers.redis().port())
                .withAuthentication("nobody-" + UUID.randomUUID(), "not-the-password").build();
        try (RedisLockClient lock = TestTransports.standalone(stranger, TIMEOUT, settings(), LockListener.NOOP)) {
            // Lettuce now and then fails a refused handshake as "RedisHandshakeHandler not registered", without
            // Redis' words: asked again, it reports them
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThatThrownBy(
                    () -> lock.tryAcquire("stranger", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK))
                    .isInstanceOf(LockStoreRefusedException.class).hasMessageContaining(": authentication failed (WRONGPASS"));
        }
    }

    @Test
    void aServerThatAcceptsAndNeverAnswers() throws IOException {
        try (ServerSocket blackHole = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> held = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(blackHole.accept());
                    }
                } catch (IOException closed) {
                    held.forEach(socket -> {
                        try {
                            socket.close();
                        } catch (IOException ignored) {
                            // the test is over
                        }
                    });
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            RedisURI silent = RedisURI.create("127.0.0.1", blackHole.getLocalPort());
            try (RedisLockClient lock = TestTransports.standalone(silent, TIMEOUT, settings(), LockListener.NOOP)) {
                assertThatThrownBy(() -> lock.tryAcquire("silent", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK))
                        .isInstanceOf(LockUnavailableException.class).hasMessageContaining(": timed out connecting (");
            }
        }
    }

    private static RedisLockSettings settings() {
        return RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix());
    }
}
