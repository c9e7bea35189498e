package io.seatlock.lock.postgres;

import io.seatlock.lock.LockListener;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** ShedLock's own provider contract ({@code shedlock-test-support}, every inherited case) on the PostgreSQL lock. */
class PostgresShedLockContractTest extends AbstractExtensibleLockProviderIntegrationTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("PostgresShedLockContractTest");

    private static final PostgresLocks locks = new PostgresLocks();
    private static PostgresLock lock;
    private static SeatlockLockProvider provider;

    @BeforeAll
    static void connect() {
        lock = locks.lock(locks.pool(servers), PostgresLockSettings.defaults(), LockListener.NOOP);
        lock.createTable();
        provider = new SeatlockLockProvider(lock);
    }

    @AfterAll
    static void close() throws Exception {
        locks.close();
    }

    @Override
    protected ExtensibleLockProvider getLockProvider() {
        return provider;
    }

    @Override
    protected void assertLocked(String lockName) {
        assertThat(lock.held(java.util.List.of(lockName))).as("lock %s held in PostgreSQL", lockName).isNotEmpty();
    }

    @Override
    protected void assertUnlocked(String lockName) {
        assertThat(lock.held(java.util.List.of(lockName))).as("lock %s held in PostgreSQL", lockName).isEmpty();
    }
}
