package io.seatlock.lock.redis.jedis;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.providers.SentineledConnectionProvider;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A Sentinel-managed master's transport asks the Sentinels again when a call cannot reach the master or finds a
 * replica there, and connects afresh when most of them name another master: Jedis moves its pool only on an announced
 * failover.
 */
final class SentinelFollower {

    private static final Logger log = LoggerFactory.getLogger(SentinelFollower.class);

    private final JedisTransport transport;
    private final Sentinels sentinels;
    private final Supplier<ConnectionProvider> connect;
    private final Duration commandTimeout;
    private final Executor background;
    /** When the Sentinels may next be asked whether they name another master (at most once per command timeout). */
    private final AtomicLong nextSentinelCheck = new AtomicLong(System.nanoTime());

    SentinelFollower(JedisTransport transport, Sentinels sentinels, Supplier<ConnectionProvider> connect,
                     Duration commandTimeout, Executor background) {
        this.transport = transport;
        this.sentinels = sentinels;
        this.connect = connect;
        this.commandTimeout = commandTimeout;
        this.background = background;
    }

    /**
     * A call could not reach the master, or reached a replica: on Sentinel, ask the Sentinels whether they name another
     * master now (on the transport's own thread, at most once per command timeout). Jedis moves its pool only when a
     * Sentinel announces {@code +switch-master}, so without this a master moved without an announcement (by hand, or
     * named by a Sentinel that was behind when Jedis asked it) would be asked for ever.
     */
    void masterUnreachable() {
        if (transport.isClosed()) {
            return;
        }
        long now = System.nanoTime();
        long next = nextSentinelCheck.get();
        if (now - next < 0 || !nextSentinelCheck.compareAndSet(next, now + commandTimeout.toNanos())) {
            return;
        }
        try {
            background.execute(this::followSentinels);
        } catch (RejectedExecutionException e) { // closed meanwhile
            log.debug("not asking the Sentinels: the transport is transport.isClosed()", e);
        }
    }

    /** Connects afresh if most of the Sentinels that answer name another master than the pool's. */
    private void followSentinels() {
        if (!(transport.currentProvider() instanceof SentineledConnectionProvider current)) {
            return;
        }
        HostAndPort named = sentinels.named();
        if (named == null || named.equals(current.getCurrentMaster()) || transport.isClosed()) {
            return;
        }
        log.info("the Sentinels name {} as master of {}, the pool is still on {}: connecting afresh", named,
                sentinels.masterName(), current.getCurrentMaster());
        ConnectionProvider fresh;
        try {
            fresh = connect.get();
        } catch (RuntimeException e) {
            log.debug("could not connect afresh through the Sentinels; the next failed call asks again", e);
            return;
        }
        transport.replaceProvider(current, fresh);
    }

    /** How to ask a Sentinel-managed master's Sentinels which master they name now. */
    record Sentinels(String masterName, Set<HostAndPort> nodes, JedisClientConfig config) {

        /** The master most of the Sentinels that answer name; null if none answers or two addresses tie. */
        @Nullable HostAndPort named() {
            Map<HostAndPort, Integer> votes = new LinkedHashMap<>();
            for (HostAndPort node : nodes) {
                try (Jedis sentinel = new Jedis(node, config)) {
                    List<String> master = sentinel.sentinelGetMasterAddrByName(masterName);
                    if (master != null && master.size() == 2) {
                        votes.merge(new HostAndPort(master.get(0), Integer.parseInt(master.get(1))), 1, Integer::sum);
                    }
                } catch (JedisException e) {
                    log.debug("Sentinel {} did not say which master it names", node, e);
                }
            }
            int most = votes.values().stream().max(Integer::compare).orElse(0);
            List<HostAndPort> leaders = votes.entrySet().stream().filter(vote -> vote.getValue() == most)
                    .map(Map.Entry::getKey).toList();
            return leaders.size() == 1 ? leaders.get(0) : null;
        }
    }
}
