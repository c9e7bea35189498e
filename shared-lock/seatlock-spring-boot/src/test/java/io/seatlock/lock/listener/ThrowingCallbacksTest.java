package io.seatlock.lock.listener;

import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.internal.Callbacks;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A user's lost-lease or leadership callback that throws, an {@link Error} included, is logged and changes nothing,
 * as a throwing {@link LockListener} does ({@link ThrowingListenerTest}). Before, an Error from a lost-lease callback
 * ended its pool thread unlogged, and one from a leadership callback vanished into a {@code FutureTask}.
 */
class ThrowingCallbacksTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ThrowingCallbacksTest");

    /** Held here: the logging framework keeps loggers only weakly. */
    private final Logger callbacksLog = Logger.getLogger(Callbacks.class.getName());
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private RedisLockClient lock;

    @BeforeEach
    void connect() {
        callbacksLog.addHandler(capture);
        lock = RedisLockClient.over(LettuceTransport.standalone(servers.redis().uri(), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId("replica-1"), LockListener.NOOP);
    }

    @AfterEach
    void close() {
        lock.close();
        callbacksLog.removeHandler(capture);
    }

    private List<Throwable> loggedFailures(String about) {
        return logged.stream().filter(r -> r.getMessage().contains(about)).map(LogRecord::getThrown).toList();
    }

    @Test
    void aLostLeaseCallbackThatThrowsAnErrorIsLoggedAndTheNextOneStillRuns() {
        RedisKeys keys = new RedisKeys(servers.keyPrefix());
        LockLease first = lock.tryAcquire("callback:first", Duration.ofMillis(1500), OverlapImpact.WASTED_WORK)
                .orElseThrow().keepAlive(() -> {
                    throw new AssertionError("lost-lease callback failure");
                });
        servers.redis().with(r -> r.del(keys.lock("callback:first"))); // taken away behind its back
        await().atMost(Duration.ofSeconds(10)).until(() -> !loggedFailures("'callback:first'").isEmpty());
        assertThat(loggedFailures("'callback:first'")).singleElement()
                .satisfies(e -> assertThat(e).isInstanceOf(AssertionError.class).hasMessage("lost-lease callback failure"));
        assertThat(first.isLost()).isTrue();

        CopyOnWriteArrayList<String> told = new CopyOnWriteArrayList<>();
        LockLease second = lock.tryAcquire("callback:second", Duration.ofMillis(1500), OverlapImpact.WASTED_WORK)
                .orElseThrow().keepAlive(() -> told.add(Thread.currentThread().getName()));
        servers.redis().with(r -> r.del(keys.lock("callback:second")));
        await().atMost(Duration.ofSeconds(10)).until(() -> !told.isEmpty());
        assertThat(told).containsExactly("seatlock-callback");
        assertThat(second.isLost()).isTrue();
        assertThat(lock.heldLeases()).isEmpty();
    }

    @Test
    void aLeadershipCallbackThatThrowsAnErrorIsLoggedAndTheElectionGoesOn() {
        List<String> heard = new CopyOnWriteArrayList<>();
        try (LeaderElection election = LeaderElection.forGroup(lock, "throwing-callbacks").candidate("me")
                .lease(Duration.ofSeconds(3)).retry(Duration.ofMillis(50)).build(new Candidate() {
                    @Override
                    public void onGranted(FencingToken epoch) {
                        heard.add("granted " + epoch);
                        throw new AssertionError("onGranted failure");
                    }

                    @Override
                    public void onRevoked(FencingToken epoch) {
                        heard.add("revoked " + epoch);
                    }
                })) {
            election.start();
            await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
            FencingToken epoch = election.epoch().orElseThrow();
            await().atMost(Duration.ofSeconds(10)).until(() -> !loggedFailures("leadership callback").isEmpty());
            assertThat(loggedFailures("leadership callback")).singleElement()
                    .satisfies(e -> assertThat(e).isInstanceOf(AssertionError.class).hasMessage("onGranted failure"));

            election.yieldLeadership();
            assertThat(heard).containsSubsequence("granted " + epoch, "revoked " + epoch);
            await().atMost(Duration.ofSeconds(10)).until(() -> election.isLeader()
                    && election.epoch().orElseThrow().isNewerThan(epoch));
            assertThat(lock.holder(election.lockName())).hasValue("replica-1");
        }
    }
}
