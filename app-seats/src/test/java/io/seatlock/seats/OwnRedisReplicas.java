package io.seatlock.seats;

import io.seatlock.lock.redis.RedisTimeouts;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.OwnedRedis;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Replicas on a test's own Redis, where every command they send can be counted, with the e-mail relay idle; and
 * another process's lock client on the same Redis and key prefix: a buyer booking elsewhere.
 */
final class OwnRedisReplicas {

    private OwnRedisReplicas() {
    }

    /** A replica on {@code redis}; {@code extra} properties as name, value pairs. */
    static SeatsReplica start(String name, IsolatedServers servers, OwnedRedis redis, String... extra) {
        return SeatsReplica.start(name, servers, 1, properties(redis, extra));
    }

    /** The properties of such a replica, for {@link SeatsReplica#startWith}. */
    static Map<String, String> properties(OwnedRedis redis, String... extra) {
        Map<String, String> properties = new HashMap<>(Map.of(
                "spring.data.redis.port", Integer.toString(redis.port()), "seats.relay.interval", "1h"));
        for (int i = 0; i < extra.length; i += 2) {
            properties.put(extra[i], extra[i + 1]);
        }
        return properties;
    }

    static RedisLockClient someoneElse(IsolatedServers servers, OwnedRedis redis) {
        return RedisLockClient.over(LettuceTransport.standalone(RedisURI.create("127.0.0.1", redis.port()),
                RedisTimeouts.of(Duration.ofSeconds(2))), RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), LockListener.NOOP);
    }
}
