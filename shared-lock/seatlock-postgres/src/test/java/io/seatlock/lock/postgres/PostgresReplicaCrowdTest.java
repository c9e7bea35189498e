package io.seatlock.lock.postgres;

import io.seatlock.lock.LockListener;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.ReplicaCrowd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * 200 waiters over ten replicas of the PostgreSQL lock (a pool of four connections each, twenty threads on each) ask
 * for one name at once: each holds it within its maxWait, never two at once, with fencing tokens in grant order.
 */
class PostgresReplicaCrowdTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("PostgresReplicaCrowdTest");

    private final PostgresLocks locks = new PostgresLocks();

    @AfterEach
    void close() throws Exception {
        locks.close();
    }

    @Test
    void twoHundredWaitersOverTenReplicasEachHoldWithinTheirWaitAndNeverTwoAtOnce() throws Exception {
        List<PostgresLock> replicas = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            replicas.add(locks.lock(locks.pool(servers, servers.jdbcUrl(), 4, Duration.ofSeconds(2)),
                    PostgresLockSettings.defaults().withInstanceId("replica-" + i), LockListener.NOOP));
        }
        replicas.get(0).createTable();
        ReplicaCrowd.handOver(replicas, 20, "crowd-of-200", Duration.ofSeconds(60));
    }
}
