package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.CountingListener;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.ReplicaCrowd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * 200 waiters over ten replicas (a client each, twenty threads on each) ask for one name at once: each holds it within
 * its maxWait, never two at once, with fencing tokens in grant order.
 */
class ReplicaCrowdTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ReplicaCrowdTest");

    @Test
    void twoHundredWaitersOverTenReplicasEachHoldWithinTheirWaitAndNeverTwoAtOnce() throws Exception {
        List<RedisLockClient> replicas = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                replicas.add(TestTransports.standalone(RedisURI.create(servers.redis().host(), servers.redis().port()),
                        Duration.ofSeconds(2), RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix())
                                .withInstanceId("replica-" + i), new CountingListener()));
            }
            ReplicaCrowd.handOver(replicas, 20, "crowd-of-200", Duration.ofSeconds(60));
        } finally {
            replicas.forEach(RedisLockClient::close);
        }
    }
}
