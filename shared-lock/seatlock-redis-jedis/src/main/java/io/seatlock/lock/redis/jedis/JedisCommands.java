package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.spi.RedisCommand;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.util.SafeEncoder;

import java.util.ArrayList;
import java.util.List;

/** The lock's commands on one Jedis connection, written and read on the calling thread. */
final class JedisCommands {

    private JedisCommands() {
    }

    /** Runs {@code command} on {@code connection}, which is the node that holds its keys. */
    @SuppressWarnings("unchecked")
    static <T> T run(Connection connection, RedisCommand<T> command) {
        return (T) command.accept(new OnConnection(connection));
    }

    /** Each kind of command on one connection: a transport that misses a kind does not compile. */
    private record OnConnection(Connection connection) implements RedisCommand.Handler<Object> {
        @Override
        public Object script(RedisCommand.Script command) {
            return JedisCommands.script(connection, command);
        }

        @Override
        public Object replicatedScript(RedisCommand.ReplicatedScript command) {
            return replicated(connection, command);
        }

        @Override
        public Object pttl(RedisCommand.Pttl command) {
            connection.sendCommand(Protocol.Command.PTTL, command.key());
            return connection.getIntegerReply();
        }

        @Override
        public Object get(RedisCommand.Get command) {
            connection.sendCommand(Protocol.Command.GET, command.key());
            return connection.getBulkReply();
        }

        @Override
        public Object scan(RedisCommand.Scan command) {
            List<String> keys = new ArrayList<>();
            scanNode(connection, command.pattern(), keys);
            return keys;
        }

        @Override
        public Object exists(RedisCommand.Exists command) {
            return JedisCommands.exists(connection, command.keys());
        }

        @Override
        public Object ping(RedisCommand.Ping command) {
            connection.sendCommand(Protocol.Command.PING);
            return connection.getStatusCodeReply();
        }
    }

    /** EVALSHA; on NOSCRIPT (after SCRIPT FLUSH or a restart), SCRIPT LOAD on the same node and once more. */
    static long script(Connection connection, RedisCommand.Script script) {
        try {
            return evalsha(connection, script);
        } catch (JedisNoScriptException e) {
            load(connection, script);
            return evalsha(connection, script);
        }
    }

    private static long evalsha(Connection connection, RedisCommand.Script script) {
        connection.sendCommand(evalshaArguments(connection, script));
        return connection.getIntegerReply();
    }

    /** The script, then WAIT, written together on one connection; both replies are read before it is handed back. */
    static RedisCommand.ScriptReply replicated(Connection connection, RedisCommand.ReplicatedScript replicated) {
        for (int attempt = 0; ; attempt++) {
            connection.sendCommand(evalshaArguments(connection, replicated.script()));
            connection.sendCommand(Protocol.Command.WAIT, Integer.toString(replicated.replicas()),
                    Long.toString(replicated.waitMillis()));
            List<Object> replies = connection.getMany(2);
            if (replies.get(0) instanceof JedisNoScriptException missing) {
                if (attempt > 0) {
                    throw missing;
                }
                load(connection, replicated.script());
                continue;
            }
            for (Object reply : replies) {
                if (reply instanceof RuntimeException error) {
                    throw error;
                }
            }
            return new RedisCommand.ScriptReply((Long) replies.get(0), (Long) replies.get(1));
        }
    }

    private static void load(Connection connection, RedisCommand.Script script) {
        connection.sendCommand(Protocol.Command.SCRIPT, "LOAD", script.source());
        connection.getBulkReply();
    }

    /** The script's {@code EVALSHA}, in the arguments a pooled connection keeps for it if it has them. */
    private static CommandArguments evalshaArguments(Connection connection, RedisCommand.Script script) {
        EvalshaArguments kept = StandalonePool.evalshaArgumentsOf(connection);
        return (kept != null ? kept : new EvalshaArguments()).fill(script);
    }

    static void scanNode(Connection connection, String pattern, List<String> into) {
        String cursor = "0";
        do {
            connection.sendCommand(Protocol.Command.SCAN, cursor, "MATCH", pattern, "COUNT", "1000");
            List<Object> page = connection.getObjectMultiBulkReply();
            cursor = SafeEncoder.encode((byte[]) page.get(0));
            for (Object key : (List<?>) page.get(1)) {
                into.add(SafeEncoder.encode((byte[]) key));
            }
        } while (!cursor.equals("0"));
    }

    /** One MGET of keys on this connection's node: one command however many keys. */
    static boolean[] exists(Connection connection, List<String> keys) {
        connection.sendCommand(Protocol.Command.MGET, keys.toArray(String[]::new));
        List<Object> values = connection.getObjectMultiBulkReply();
        boolean[] exists = new boolean[keys.size()];
        for (int i = 0; i < exists.length; i++) {
            exists[i] = values.get(i) != null;
        }
        return exists;
    }

    /**
     * Marks {@code connection} broken, so that its pool destroys it instead of lending it again, unless {@code failure}
     * is an error reply Redis sent in full. Anything else (an {@link Error} while parsing, a reply of a shape nobody
     * expected) may have come between writing a command and reading all of its reply, and the next borrower would
     * read the rest as its own answer. Jedis marks its own I/O failures and timeouts broken already.
     */
    static void breakUnlessAnswered(Connection connection, Throwable failure) {
        if (!(failure instanceof JedisDataException)) {
            connection.setBroken();
        }
    }
}
