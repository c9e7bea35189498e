package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.spi.RedisCommand;
import io.seatlock.lock.internal.DaemonThreads;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a Jedis transport does on a Redis Cluster beyond sending a command to its slot's node: it reads the slot map
 * again (every refresh period, and behind a MOVED), and sends the commands that go to every master (a scan, a ping) or
 * to several (an exists of keys in different slots).
 */
final class ClusterCalls {

    private static final Logger log = LoggerFactory.getLogger(ClusterCalls.class);

    private final JedisTransport transport;
    private final JedisLending lending;
    /** How often the slot map is read again. */
    private final Duration clusterRefresh;
    private final Duration commandTimeout;
    private final Executor background;
    /** Reads the slot map again every {@link #clusterRefresh}, from the first connect on; starts no thread before. */
    private final ScheduledThreadPoolExecutor refreshing =
            new ScheduledThreadPoolExecutor(1, DaemonThreads.named("seatlock-jedis-cluster-refresh"));
    /** Whether a reading of the slot map runs: one at a time. */
    private final AtomicBoolean readingSlotMap = new AtomicBoolean();

    ClusterCalls(JedisTransport transport, JedisLending lending, Duration clusterRefresh, Duration commandTimeout,
                 Executor background) {
        this.transport = transport;
        this.lending = lending;
        this.clusterRefresh = clusterRefresh;
        this.commandTimeout = commandTimeout;
        this.background = background;
    }

    void close() {
        refreshing.shutdownNow();
    }

    /**
     * Reads the slot map again behind a call that got a MOVED, on a thread of the transport's, from {@code answering}
     * (the node that sent it) first. Jedis' own way, on the caller's thread and from the seeds first, made the call
     * wait on every seed that answers nothing, a command timeout each, past its deadline.
     */
    void renewSlotMap(ClusterConnectionProvider clusterNodes, HostAndPort answering) {
        if (readingSlotMap.get()) {
            return; // every call on a moved slot gets a MOVED until a reading ends: one reading for them all
        }
        try {
            background.execute(() -> refreshSlotMap(clusterNodes, answering));
        } catch (RejectedExecutionException e) { // closed
            log.debug("not reading the slot map again: the transport is transport.isClosed()", e);
        }
    }

    void startRefreshing(ClusterConnectionProvider clusterNodes) {
        long period = clusterRefresh.toNanos();
        try {
            refreshing.scheduleWithFixedDelay(() -> refreshSlotMap(clusterNodes, null), period, period,
                    TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) { // closed
            log.debug("not reading the slot map again: the transport is transport.isClosed()", e);
        }
    }

    /**
     * Reads the slot map again from a node that answers a {@code PING} on a pooled connection: {@code first} if given,
     * else the masters in random order; from the seeds and every node Jedis knows only if none does. Jedis' own
     * periodic refresh, which this replaces, opened a connection to the seeds first each time, so seeds that answer
     * nothing (an address in front of the cluster that went away) held each reading up by a command timeout apiece,
     * and each reading cost a new connection (a TLS handshake with TLS). One reading at a time: one asked for while
     * another runs is skipped. Whatever it throws, the next reading comes: a scheduled task that throws is never
     * run again, which ended Jedis' refresh for good on any failure other than a Jedis exception.
     */
    void refreshSlotMap(ClusterConnectionProvider clusterNodes, @Nullable HostAndPort first) {
        if (!readingSlotMap.compareAndSet(false, true)) {
            return;
        }
        try {
            if (first != null && readSlotMapFrom(clusterNodes, first)) {
                return;
            }
            List<HostAndPort> masters = new ArrayList<>(mastersServingSlots(clusterNodes));
            Collections.shuffle(masters);
            for (HostAndPort master : masters) {
                if (transport.isClosed() || readSlotMapFrom(clusterNodes, master)) {
                    return;
                }
            }
            clusterNodes.renewSlotCache();
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            log.warn("could not read the cluster's slot map again; trying again in {}", clusterRefresh, e);
        } finally {
            readingSlotMap.set(false);
        }
    }

    /** Whether {@code node} answered a {@code PING} on a pooled connection, on which the slot map was then read. */
    private boolean readSlotMapFrom(ClusterConnectionProvider clusterNodes, HostAndPort node) {
        Connection connection;
        try {
            connection = clusterNodes.getConnection(node);
        } catch (JedisException e) {
            return false;
        }
        try {
            connection.setSoTimeout(Math.toIntExact(commandTimeout.toMillis())); // not what its last call had left
            connection.sendCommand(Protocol.Command.PING);
            connection.getStatusCodeReply();
            clusterNodes.renewSlotCache(connection);
            return true;
        } catch (JedisException e) {
            JedisCommands.breakUnlessAnswered(connection, e);
            return false;
        } finally {
            lending.giveBack(connection);
        }
    }

    /** SCAN on every master of a cluster, each through a connection of its own, within the one deadline. */
    List<String> scanEveryMaster(ClusterConnectionProvider clusterNodes, String pattern, long deadline) {
        List<String> keys = new ArrayList<>();
        for (HostAndPort master : mastersServingSlots(clusterNodes)) {
            Connection node = clusterNodes.getConnection(master);
            try {
                lending.readUntil(node, deadline);
                JedisCommands.scanNode(node, pattern, keys);
            } catch (RuntimeException | Error e) {
                JedisCommands.breakUnlessAnswered(node, e);
                throw e;
            } finally {
                lending.giveBack(node);
            }
        }
        return keys;
    }

    /**
     * A {@code PING} to every master of the slot map, each written before any reply is read: answers once each has,
     * or fails naming a master that did not.
     */
    String pingEveryMaster(ClusterConnectionProvider clusterNodes, long deadline) {
        Map<HostAndPort, Connection> asked = new LinkedHashMap<>();
        try {
            for (HostAndPort master : mastersServingSlots(clusterNodes)) {
                try {
                    Connection connection = clusterNodes.getConnection(master);
                    asked.put(master, connection);
                    lending.readUntil(connection, deadline);
                    connection.sendCommand(Protocol.Command.PING);
                } catch (JedisException e) {
                    throw unanswered(master, e);
                }
            }
            for (Map.Entry<HostAndPort, Connection> master : asked.entrySet()) {
                try {
                    master.getValue().getStatusCodeReply();
                } catch (JedisException e) {
                    throw unanswered(master.getKey(), e);
                }
            }
            return "PONG";
        } catch (RuntimeException | Error e) {
            asked.values().forEach(connection -> JedisCommands.breakUnlessAnswered(connection, e));
            throw e;
        } finally {
            asked.values().forEach(lending::giveBack);
        }
    }

    /**
     * The masters the slot map names, each once. Not Jedis' list of primaries, which keeps a master that failed over
     * (its pool is never dropped), so a scan or a ping would go on asking the dead node.
     */
    private static Set<HostAndPort> mastersServingSlots(ClusterConnectionProvider clusterNodes) {
        Set<HostAndPort> masters = new LinkedHashSet<>();
        for (int slot = 0; slot < Protocol.CLUSTER_HASHSLOTS; slot++) {
            HostAndPort master = clusterNodes.getNode(slot);
            if (master != null) {
                masters.add(master);
            }
        }
        return masters;
    }

    /** {@code failure}, naming the master it was for. */
    private static JedisConnectionException unanswered(HostAndPort master, JedisException failure) {
        return new JedisConnectionException("master " + master + " did not answer: " + failure.getMessage(), failure);
    }

    /**
     * On a cluster one EXISTS per key (keys in different slots cannot share an MGET), pipelined: written together on
     * one connection to each master that holds some of them, then all of that master's replies read. So a seat map of
     * a few thousand seats costs a round trip per master, not one per seat. A key whose slot moved since the slot map
     * was read (resharding, failover) is asked again on its own, which follows the redirection.
     */
    boolean[] existsOnEachNode(ClusterConnectionProvider clusterNodes, List<String> keys, long deadline) {
        boolean[] exists = new boolean[keys.size()];
        Map<HostAndPort, List<Integer>> byNode = new LinkedHashMap<>();
        List<Integer> redirected = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            HostAndPort node = clusterNodes.getNode(JedisClusterCRC16.getSlot(keys.get(i)));
            (node == null ? redirected : byNode.computeIfAbsent(node, n -> new ArrayList<>())).add(i);
        }
        for (Map.Entry<HostAndPort, List<Integer>> node : byNode.entrySet()) {
            List<Integer> indexes = node.getValue();
            Connection connection = clusterNodes.getConnection(node.getKey());
            try {
                lending.readUntil(connection, deadline);
                for (int i : indexes) {
                    connection.sendCommand(Protocol.Command.EXISTS, keys.get(i));
                }
                List<Object> replies = connection.getMany(indexes.size());
                for (int j = 0; j < indexes.size(); j++) {
                    Object reply = replies.get(j);
                    if (reply instanceof JedisMovedDataException || reply instanceof JedisAskDataException) {
                        redirected.add(indexes.get(j));
                    } else if (reply instanceof RuntimeException error) {
                        throw error;
                    } else {
                        exists[indexes.get(j)] = (Long) reply == 1;
                    }
                }
            } catch (RuntimeException | Error e) {
                JedisCommands.breakUnlessAnswered(connection, e);
                throw e;
            } finally {
                lending.giveBack(connection);
            }
        }
        for (int i : redirected) {
            exists[i] = transport.execute(new RedisCommand.Exists(List.of(keys.get(i))), deadline, () -> { })[0];
        }
        return exists;
    }
}
