package io.seatlock.lock.redis.spi;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * The few Redis commands the lock sends, as a transport receives them. A transport answers each with the
 * result type it names; a Redis error reply fails the answer with the client's own exception.
 *
 * @param <T> what the command answers
 */
public sealed interface RedisCommand<T> permits RedisCommand.Script, RedisCommand.ReplicatedScript, RedisCommand.Pttl,
        RedisCommand.Get, RedisCommand.Scan, RedisCommand.Exists, RedisCommand.Ping {

    /**
     * {@code EVALSHA sha} with integer output; on a {@code NOSCRIPT} reply, {@code SCRIPT LOAD source} on the same
     * node and one retry. Every key shares one hash slot.
     *
     * @param sha    the script's SHA-1
     * @param source the script, for loading it
     * @param keys   the script's keys (not copied)
     * @param args   the script's arguments (not copied)
     */
    record Script(String sha, String source, String[] keys, String[] args) implements RedisCommand<Long> {
    }

    /**
     * A script followed by {@code WAIT replicas waitMillis} on the same connection, so that the count covers the
     * script's write. Never sent to a Redis Cluster.
     *
     * @param script     the write
     * @param replicas   how many replicas to wait for
     * @param waitMillis how long {@code WAIT} may block
     */
    record ReplicatedScript(Script script, int replicas, long waitMillis) implements RedisCommand<ScriptReply> {
    }

    /**
     * A {@link ReplicatedScript}'s answer.
     *
     * @param value        the script's integer reply
     * @param acknowledged how many replicas had it within the wait
     */
    record ScriptReply(long value, long acknowledged) {
    }

    /**
     * {@code PTTL key}: milliseconds left, -1 without expiry, -2 if there is no such key.
     *
     * @param key the key
     */
    record Pttl(String key) implements RedisCommand<Long> {
    }

    /**
     * {@code GET key}; answers null if there is no such key.
     *
     * @param key the key
     */
    record Get(String key) implements RedisCommand<@Nullable String> {
    }

    /**
     * Every key matching {@code pattern}, by {@code SCAN} (every master of a cluster), pages of about 1,000.
     *
     * @param pattern a glob pattern
     */
    record Scan(String pattern) implements RedisCommand<List<String>> {
    }

    /**
     * Which of these (string) keys exist; answers one flag per key, in order. One {@code MGET} of them all where they
     * live on one node, so one command whatever the number of keys; on a cluster, where each lives in a slot of its
     * own, one command per key, sent without waiting for one reply before the next command (pipelined).
     *
     * @param keys the keys
     */
    record Exists(List<String> keys) implements RedisCommand<boolean[]> {
    }

    /**
     * {@code PING}; on a cluster, to every master that serves slots, answering once each has: a master that does not
     * answer fails it (its slots' locks are unavailable, whatever the other masters say).
     */
    record Ping() implements RedisCommand<String> {
    }
}
