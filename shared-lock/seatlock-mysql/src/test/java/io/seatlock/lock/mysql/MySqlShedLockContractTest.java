package io.seatlock.lock.mysql;

import io.seatlock.lock.LockListener;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import io.seatlock.localservers.IsolatedMariaDb;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** ShedLock's own provider contract ({@code shedlock-test-support}, every inherited case) on the MySQL lock. */
class MySqlShedLockContractTest extends AbstractExtensibleLockProviderIntegrationTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlShedLockContractTest");

    private static final MySqlLocks locks = new MySqlLocks();
    private static MySqlLock lock;
    private static SeatlockLockProvider provider;

    @BeforeAll
    static void connect() {
        lock = locks.lock(locks.pool(database), MySqlLockSettings.defaults(), LockListener.NOOP);
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
        assertThat(lock.held(List.of(lockName))).as("lock %s held in MariaDB", lockName).isNotEmpty();
    }

    @Override
    protected void assertUnlocked(String lockName) {
        assertThat(lock.held(List.of(lockName))).as("lock %s held in MariaDB", lockName).isEmpty();
    }
}
