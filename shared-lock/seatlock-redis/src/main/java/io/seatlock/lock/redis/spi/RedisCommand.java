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
     * Hands this command to the method of {@code handler} for its kind: a transport carries every command by
     * implementing each, so one it misses does not compile.
     *
     * @param handler how the transport sends each kind of command
     * @param <R>     what the handler answers
     * @return the handler's answer
     */
    <R> R accept(Handler<R> handler);

    /**
     * The key whose hash slot a Redis Cluster routes this command by.
     *
     * @return the command's first key, or null for one that goes to every master ({@link Scan}, {@link Ping})
     */
    @Nullable String routingKey();

    /**
     * A transport's way of sending each kind of command: one method per kind.
     *
     * @param <R> what each method answers
     */
    interface Handler<R> {
        /**
         * Sends a script.
         *
         * @param command the command
         * @return the answer
         */
        R script(Script command);

        /**
         * Sends a script and the WAIT behind it.
         *
         * @param command the command
         * @return the answer
         */
        R replicatedScript(ReplicatedScript command);

        /**
         * Sends a PTTL.
         *
         * @param command the command
         * @return the answer
         */
        R pttl(Pttl command);

        /**
         * Sends a GET.
         *
         * @param command the command
         * @return the answer
         */
        R get(Get command);

        /**
         * Sends a SCAN of every master.
         *
         * @param command the command
         * @return the answer
         */
        R scan(Scan command);

        /**
         * Sends an EXISTS (or MGET) of keys.
         *
         * @param command the command
         * @return the answer
         */
        R exists(Exists command);

        /**
         * Sends a PING.
         *
         * @param command the command
         * @return the answer
         */
        R ping(Ping command);
    }

    /**
     * {@code EVALSHA sha} with integer output; on a {@code NOSCRIPT} reply, {@code SCRIPT LOAD source} on the same
     * node and one retry. Every key shares one hash slot.
     *
     * @param sha    the script's SHA-1
     * @param source the script, for loading it
     * @param keys   the script's keys, at least one (an immutable list is kept as it is, another one copied)
     * @param args   the script's arguments (likewise)
     */
    record Script(String sha, String source, List<String> keys, List<String> args) implements RedisCommand<Long> {

        /**
         * Keeps immutable lists.
         *
         * @param sha    see above
         * @param source see above
         * @param keys   see above
         * @param args   see above
         * @throws IllegalArgumentException without a key
         */
        public Script {
            keys = List.copyOf(keys);
            args = List.copyOf(args);
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("a script needs at least one key, the one it is routed by");
            }
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.script(this);
        }

        @Override
        public @Nullable String routingKey() {
            return keys.get(0);
        }
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
        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.replicatedScript(this);
        }

        @Override
        public @Nullable String routingKey() {
            return script.routingKey();
        }
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
        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.pttl(this);
        }

        @Override
        public @Nullable String routingKey() {
            return key;
        }
    }

    /**
     * {@code GET key}; answers null if there is no such key.
     *
     * @param key the key
     */
    record Get(String key) implements RedisCommand<@Nullable String> {
        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.get(this);
        }

        @Override
        public @Nullable String routingKey() {
            return key;
        }
    }

    /**
     * Every key matching {@code pattern}, by {@code SCAN} (every master of a cluster), pages of about 1,000.
     *
     * @param pattern a glob pattern
     */
    record Scan(String pattern) implements RedisCommand<List<String>> {
        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.scan(this);
        }

        @Override
        public @Nullable String routingKey() {
            return null;
        }
    }

    /**
     * Which of these (string) keys exist; answers one flag per key, in order. One {@code MGET} of them all where they
     * live on one node, so one command whatever the number of keys; on a cluster, where each lives in a slot of its
     * own, one command per key, sent without waiting for one reply before the next command (pipelined).
     *
     * @param keys the keys
     */
    record Exists(List<String> keys) implements RedisCommand<boolean[]> {
        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.exists(this);
        }

        @Override
        public @Nullable String routingKey() {
            return keys.get(0);
        }
    }

    /**
     * {@code PING}; on a cluster, to every master that serves slots, answering once each has: a master that does not
     * answer fails it (its slots' locks are unavailable, whatever the other masters say).
     */
    record Ping() implements RedisCommand<String> {
        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.ping(this);
        }

        @Override
        public @Nullable String routingKey() {
            return null;
        }
    }
}
