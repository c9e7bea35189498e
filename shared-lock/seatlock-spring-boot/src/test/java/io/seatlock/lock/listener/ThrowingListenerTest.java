package io.seatlock.lock.listener;

import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A listener is observability: one that throws from every callback changes nothing the lock does. */
class ThrowingListenerTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ThrowingListenerTest");

    /** Throws from every callback, and counts the calls so the test knows they happened. */
    static final class ThrowingListener implements LockListener {
        final AtomicInteger calls = new AtomicInteger();

        private void boom() {
            calls.incrementAndGet();
            throw new IllegalStateException("listener failure");
        }

        @Override public void onAttempt(String group) { boom(); }
        @Override public void onAcquired(String group, OverlapImpact impact) { boom(); }
        @Override public void onBusy(String group) { boom(); }
        @Override public void onDecided(String group) { boom(); }
        @Override public void onUnavailable(String group) { boom(); }
        @Override public void onLateGrant(String group) { boom(); }
        @Override public void onReleased(String group, Duration held) { boom(); }
        @Override public void onLost(String group, OverlapImpact impact, Duration held) { boom(); }
        @Override public void onRenewed(String group) { boom(); }
        @Override public void onRenewalFailed(String group) { boom(); }
        @Override public void onFencingRejected(String resource) { boom(); }
    }

    private final ThrowingListener listener = new ThrowingListener();
    private RedisLockClient lock;

    @BeforeEach
    void connect() {
        lock = RedisLockClient.over(LettuceTransport.standalone(servers.redis().uri(), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), listener);
    }

    @AfterEach
    void close() {
        lock.close();
    }

    private String key(String name) {
        return new RedisKeys(servers.keyPrefix()).lock(name);
    }

    @Test
    void locksAndLeasesWorkAsIfNobodyListened() {
        LockLease lease = lock.tryAcquire("throwing:a", Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        assertThat(lock.heldLeases()).containsExactly(lease);
        String owner = servers.redis().with(r -> r.get(key("throwing:a")));
        assertThat(owner).isEqualTo(lease.ownerToken());
        assertThat(lock.tryAcquire("throwing:a", Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE)).isEmpty();
        assertThat(lease.renew()).isTrue();
        assertThat(lease.releaseDecided(Duration.ofSeconds(30))).isEqualTo(ReleaseOutcome.RELEASED);
        assertThat(lock.tryAcquireUnlessDecided("throwing:a", Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE)
                .isDecided()).isTrue();
        assertThat(lock.heldLeases()).isEmpty();
        assertThat(lock.executeLocked("throwing:task", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK, l -> 42)
                .result()).isEqualTo(42);
        assertThat(listener.calls).hasValueGreaterThan(8);
    }

    @Test
    void aLostLeaseStillRunsTheUsersCallbackAndInterruptsTheTask() {
        LockLease lease = lock.tryAcquire("throwing:lost", Duration.ofMillis(1500), OverlapImpact.WASTED_WORK).orElseThrow();
        AtomicBoolean told = new AtomicBoolean();
        lease.keepAlive(() -> told.set(true));
        servers.redis().with(r -> r.del(key("throwing:lost"))); // taken away behind its back
        await().atMost(Duration.ofSeconds(5)).untilTrue(told);
        assertThat(lease.isLost()).isTrue();
        assertThat(lock.heldLeases()).isEmpty();
    }

    @Test
    void leaderTermsAndTheShedLockProviderAreUnaffected() throws Exception {
        AtomicBoolean granted = new AtomicBoolean();
        try (LeaderElection election = LeaderElection.forGroup(lock, "throwing").candidate("me")
                .lease(Duration.ofSeconds(3)).retry(Duration.ofMillis(50)).build(new Candidate() {
                    @Override
                    public void onGranted(FencingToken epoch) {
                        granted.set(true);
                    }

                    @Override
                    public void onRevoked(FencingToken epoch) {
                    }
                })) {
            election.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> granted.get() && election.isLeader());
        }

        SeatlockLockProvider provider = new SeatlockLockProvider(lock);
        SimpleLock job = provider.lock(new LockConfiguration(Instant.now(), "throwing-job", Duration.ofSeconds(30),
                Duration.ZERO)).orElseThrow();
        assertThat(provider.lock(new LockConfiguration(Instant.now(), "throwing-job", Duration.ofSeconds(30),
                Duration.ZERO))).isEmpty();
        job.unlock();
        assertThat(lock.remainingTtl("throwing-job")).isEmpty();
    }

    @Test
    void aFenceStillRefusesTheStaleTokenWithItsOwnException() throws Exception {
        PostgresFence fence = new PostgresFence(listener);
        try (Connection c = servers.postgres().connect(servers.database()); Statement s = c.createStatement()) {
            s.execute(new String(getClass().getClassLoader().getResourceAsStream(PostgresFence.DDL_RESOURCE)
                    .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            c.setAutoCommit(false); // the fence admits only in the guarded write's transaction
            fence.admit(c, "throwing", new FencingToken(20));
            assertThatThrownBy(() -> fence.admit(c, "throwing", new FencingToken(10)))
                    .isInstanceOf(StaleFencingTokenException.class);
        }
        assertThat(listener.calls).hasValue(1);
    }
}
