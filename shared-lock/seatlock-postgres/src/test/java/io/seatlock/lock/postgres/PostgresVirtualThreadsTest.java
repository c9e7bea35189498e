package io.seatlock.lock.postgres;

import io.seatlock.lock.LockListener;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.VirtualThreadCrowd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 1,000 virtual threads contending on five names of the PostgreSQL lock (its pool of 8 connections between them)
 * each take their name once, never two holders at once, and pin no carrier thread; on Java 21 and later.
 */
class PostgresVirtualThreadsTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("PostgresVirtualThreadsTest");

    private final PostgresLocks locks = new PostgresLocks();

    @AfterEach
    void close() throws Exception {
        locks.close();
    }

    @Test
    void aThousandVirtualThreadsContendWithEveryPromiseKeptAndNoCarrierPinned() throws Exception {
        PostgresLock lock = locks.lock(locks.pool(servers), PostgresLockSettings.defaults(), LockListener.NOOP);
        lock.createTable();
        VirtualThreadCrowd.run(lock, 1_000, 5);
    }
}
