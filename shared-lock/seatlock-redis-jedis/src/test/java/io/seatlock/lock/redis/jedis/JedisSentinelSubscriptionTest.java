package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisTimeouts;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.TestTransports;
import io.seatlock.localservers.RedisSentinelSetup;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.providers.SentineledConnectionProvider;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Jedis follows a Sentinel failover through a subscription to each Sentinel's {@code +switch-master}, which it never
 * pings. With the command timeout's read bound on it (as the transport once had), each subscription was dropped
 * after six command timeouts of an uneventful Sentinel, logged as an error, and made again only five seconds later,
 * deaf to a failover meanwhile.
 */
class JedisSentinelSubscriptionTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);
    /** What the subscription's read bound was: five command timeouts between pings and one more. */
    private static final Duration OLD_READ_BOUND = TIMEOUT.multipliedBy(6);
    /** How long Jedis' listener waits before subscribing again after it lost its subscription. */
    private static final Duration JEDIS_RESUBSCRIBE_WAIT = Duration.ofSeconds(5);

    private final Logger providerLog = (Logger) LoggerFactory.getLogger(SentineledConnectionProvider.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void recordTheProvidersLog() {
        logged.start();
        providerLog.addAppender(logged);
    }

    @AfterEach
    void stopRecording() {
        providerLog.detachAppender(logged);
    }

    @Test
    void aQuietSentinelKeepsItsSubscriptionAndTheClientStillFollowsItsAnnouncement() throws Exception {
        try (RedisSentinelSetup redis = new RedisSentinelSetup(true, 1, Duration.ofSeconds(5));
             RedisLockClient lock = TestTransports.warmedUp(RedisLockClient.over(JedisTransport.sentinel(
                     RedisSentinelSetup.MASTER_NAME, Set.of(HostAndPort.from(redis.sentinelNodes())),
                     DefaultJedisClientConfig.builder().build(), DefaultJedisClientConfig.builder().build(), RedisTimeouts.of(TIMEOUT)),
                     RedisLockSettings.defaults(), LockListener.NOOP))) {
            RedisServer sentinel = redis.sentinels().get(0);
            await("the client's listener subscribed to the Sentinel").atMost(Duration.ofSeconds(30))
                    .until(() -> subscribers(sentinel).size() == 1);
            String listener = subscribers(sentinel).get(0);

            // nothing to announce for longer than the old bound and Jedis' wait before subscribing again: the same
            // connection stays subscribed throughout
            Duration quiet = OLD_READ_BOUND.plus(JEDIS_RESUBSCRIBE_WAIT).plusSeconds(1);
            await().during(quiet).atMost(quiet.plusSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> subscribers(sentinel), subscribed -> subscribed.equals(List.of(listener)));

            // refused while the Sentinel's view of the replica is stale (NOGOODSLAVE) on a busy machine: asked again
            await("the Sentinel takes the failover").atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                redis.failover();
                return true;
            });
            RedisServer promoted = redis.replica();
            await("a grant on the master the Sentinel announced").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> TestTransports.grantLandsOn(lock, "sentinel:follows", promoted));
            assertThat(logged.list).as("nothing the provider logged as an error").noneMatch(e -> e.getLevel() == Level.ERROR);
        }
    }

    /** The ids of the Sentinel's clients subscribed to a channel. */
    private static List<String> subscribers(RedisServer sentinel) {
        return sentinel.with(r -> r.clientList()).lines().filter(client -> client.contains(" sub=1 "))
                .map(client -> client.substring(0, client.indexOf(' '))).toList();
    }
}
