package io.seatlock.lock.redis.lettuce;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.seatlock.lock.redis.spi.RedisCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/** Each of the lock's commands on one Lettuce connection's asynchronous commands; nothing here blocks. */
final class LettuceCommands implements RedisCommand.Handler<CompletableFuture<?>> {

    /** What a script's key and argument lists are turned into for Lettuce, which takes arrays. */
    private static final String[] NO_STRINGS = new String[0];

    private final RedisClusterAsyncCommands<String, String> r;
    private final boolean cluster;
    /** Where a cluster scan asks for its next page: off Lettuce's I/O thread. */
    private final Executor computation;

    LettuceCommands(RedisClusterAsyncCommands<String, String> r, boolean cluster, Executor computation) {
        this.r = r;
        this.cluster = cluster;
        this.computation = computation;
    }

    boolean on(RedisClusterAsyncCommands<String, String> commands) {
        return r == commands;
    }

    @Override
    public CompletableFuture<?> script(RedisCommand.Script command) {
        return script(r, command);
    }

    @Override
    public CompletableFuture<?> replicatedScript(RedisCommand.ReplicatedScript command) {
        return replicated(r, command);
    }

    @Override
    public CompletableFuture<?> pttl(RedisCommand.Pttl command) {
        return r.pttl(command.key()).toCompletableFuture();
    }

    @Override
    public CompletableFuture<?> get(RedisCommand.Get command) {
        return r.get(command.key()).toCompletableFuture();
    }

    @Override
    public CompletableFuture<?> scan(RedisCommand.Scan command) {
        ScanArgs args = ScanArgs.Builder.matches(command.pattern()).limit(1000);
        return r instanceof RedisAdvancedClusterAsyncCommands<String, String> advanced
                ? scanEveryMaster(advanced.getStatefulConnection(), args, computation)
                : scan(r, args, ScanCursor.INITIAL, new ArrayList<>(), computation);
    }

    @Override
    public CompletableFuture<?> exists(RedisCommand.Exists command) {
        return exists(r, command.keys(), cluster);
    }

    @Override
    public CompletableFuture<?> ping(RedisCommand.Ping command) {
        return r instanceof RedisAdvancedClusterAsyncCommands<String, String> advanced
                ? pingEveryMaster(advanced.getStatefulConnection()) : r.ping().toCompletableFuture();
    }

    /**
     * A {@code PING} to every master that serves slots, each on its own node connection, all at once: answers once each
     * has, or fails naming a master that did not.
     */
    private static CompletableFuture<String> pingEveryMaster(StatefulRedisClusterConnection<String, String> cluster) {
        List<CompletableFuture<String>> pongs = new ArrayList<>();
        for (RedisURI master : mastersServingSlots(cluster)) {
            pongs.add(cluster.getConnectionAsync(master.getHost(), master.getPort())
                    .thenCompose(connection -> connection.async().ping())
                    .exceptionally(error -> {
                        Throwable cause = unwrapped(error);
                        throw new RedisConnectionException("master " + master.getHost() + ":" + master.getPort()
                                + " did not answer: " + cause.getMessage(), cause);
                    }));
        }
        return CompletableFuture.allOf(pongs.toArray(CompletableFuture[]::new)).thenApply(all -> "PONG");
    }

    /**
     * {@code SCAN} of every master that serves slots, one after the other, each on its own node connection. Not
     * Lettuce's cluster scan, which also asks a master that failed over (still in the layout as a master, without
     * slots) and fails on it.
     */
    private static CompletableFuture<List<String>> scanEveryMaster(StatefulRedisClusterConnection<String, String> cluster,
                                                                   ScanArgs args, Executor computation) {
        List<String> keys = new ArrayList<>();
        CompletableFuture<List<String>> scanned = CompletableFuture.completedFuture(keys);
        for (RedisURI master : mastersServingSlots(cluster)) {
            scanned = scanned.thenCompose(sofar -> cluster.getConnectionAsync(master.getHost(), master.getPort()))
                    .thenCompose(node -> scan(node.async(), args, ScanCursor.INITIAL, keys, computation));
        }
        return scanned;
    }

    /** The masters of the cluster's layout as last read, those that serve slots (a failed-over one serves none). */
    private static List<RedisURI> mastersServingSlots(StatefulRedisClusterConnection<String, String> cluster) {
        List<RedisURI> masters = new ArrayList<>();
        for (RedisClusterNode node : cluster.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.hasNoSlots()) {
                masters.add(node.getUri());
            }
        }
        return masters;
    }

    /** EVALSHA; on NOSCRIPT (after SCRIPT FLUSH or a restart) the script is loaded and sent once more. */
    private static CompletableFuture<Long> script(RedisClusterAsyncCommands<String, String> r, RedisCommand.Script script) {
        return loadedOnNoScript(r, script, () -> evalsha(r, script));
    }

    /** The script and a WAIT behind it on the same connection; after a NOSCRIPT, both once more. */
    private static CompletableFuture<RedisCommand.ScriptReply> replicated(RedisClusterAsyncCommands<String, String> r,
                                                                       RedisCommand.ReplicatedScript replicated) {
        return loadedOnNoScript(r, replicated.script(), () -> evalshaThenWait(r, replicated));
    }

    /** {@code send}; if Redis no longer has {@code script} (NOSCRIPT), {@code SCRIPT LOAD} and {@code send} once more. */
    private static <T> CompletableFuture<T> loadedOnNoScript(RedisClusterAsyncCommands<String, String> r,
                                                             RedisCommand.Script script,
                                                             Supplier<CompletableFuture<T>> send) {
        return send.get().exceptionallyCompose(error -> {
            Throwable cause = unwrapped(error);
            if (!(cause instanceof RedisNoScriptException)) {
                return CompletableFuture.failedFuture(cause);
            }
            return r.scriptLoad(script.source()).toCompletableFuture().thenCompose(loaded -> send.get());
        });
    }

    private static CompletableFuture<RedisCommand.ScriptReply> evalshaThenWait(RedisClusterAsyncCommands<String, String> r,
                                                                             RedisCommand.ReplicatedScript replicated) {
        CompletableFuture<Long> write = evalsha(r, replicated.script());
        CompletableFuture<Long> acknowledged = r.waitForReplication(replicated.replicas(), replicated.waitMillis())
                .toCompletableFuture();
        return write.thenCombine(acknowledged, RedisCommand.ScriptReply::new);
    }

    private static CompletableFuture<Long> evalsha(RedisClusterAsyncCommands<String, String> r, RedisCommand.Script script) {
        return r.<Long>evalsha(script.sha(), ScriptOutputType.INTEGER, script.keys().toArray(NO_STRINGS),
                script.args().toArray(NO_STRINGS)).toCompletableFuture();
    }

    private static CompletableFuture<List<String>> scan(RedisClusterAsyncCommands<String, String> r, ScanArgs args,
                                                        ScanCursor from, List<String> into, Executor computation) {
        // The next page is asked for off Lettuce's I/O thread: a cluster scan may open a node connection and wait for it.
        return r.scan(from, args).toCompletableFuture().thenComposeAsync(page -> {
            into.addAll(page.getKeys());
            return page.isFinished() ? CompletableFuture.completedFuture(into) : scan(r, args, page, into, computation);
        }, computation);
    }

    /** One MGET of them all; on a cluster one EXISTS per key (each lives in a slot of its own), sent together. */
    private static CompletableFuture<boolean[]> exists(RedisClusterAsyncCommands<String, String> r, List<String> keys,
                                                      boolean cluster) {
        if (!cluster) {
            return r.mget(keys.toArray(String[]::new)).toCompletableFuture().thenApply(values -> {
                boolean[] exists = new boolean[values.size()];
                for (int i = 0; i < exists.length; i++) {
                    exists[i] = values.get(i).hasValue();
                }
                return exists;
            });
        }
        List<CompletableFuture<Long>> answers = keys.stream().map(key -> r.exists(key).toCompletableFuture()).toList();
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(all -> {
            boolean[] exists = new boolean[answers.size()];
            for (int i = 0; i < exists.length; i++) {
                exists[i] = answers.get(i).join() == 1;
            }
            return exists;
        });
    }

    private static Throwable unwrapped(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
