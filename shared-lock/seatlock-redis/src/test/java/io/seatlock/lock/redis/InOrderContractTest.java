package io.seatlock.lock.redis;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.DistributedLockContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/** The published contract with every blocking acquire in order of arrival ({@code acquireInOrder}), on Redis. */
class InOrderContractTest extends DistributedLockContract {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("InOrderContractTest");

    private RedisLockClient a;
    private RedisLockClient b;

    @BeforeEach
    void setUp() {
        a = client("a");
        b = client("b");
    }

    @AfterEach
    void tearDown() {
        a.close();
        b.close();
    }

    private static RedisLockClient client(String instance) {
        return TestTransports.standalone(servers.redis().uri(), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId(instance), LockListener.NOOP);
    }

    @Override
    protected DistributedLock lock() {
        return new InOrder(a);
    }

    @Override
    protected DistributedLock otherReplica() {
        return new InOrder(b);
    }

    @Override
    protected void takeAway(String name) {
        servers.redis().with(r -> r.del(new RedisKeys(servers.keyPrefix()).lock(name)));
    }
}
