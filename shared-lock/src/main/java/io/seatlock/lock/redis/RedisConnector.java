package io.seatlock.lock.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.function.Function;

/** Connects lazily on first use, so an app can start while Redis is down; Lettuce reconnects after. */
final class RedisConnector implements AutoCloseable {

    private final AbstractRedisClient client;
    private final Function<AbstractRedisClient, StatefulConnection<String, String>> connect;
    private final Function<StatefulConnection<String, String>, RedisClusterCommands<String, String>> commands;
    private volatile StatefulConnection<String, String> connection;

    private RedisConnector(AbstractRedisClient client,
                           Function<AbstractRedisClient, StatefulConnection<String, String>> connect,
                           Function<StatefulConnection<String, String>, RedisClusterCommands<String, String>> commands) {
        this.client = client;
        this.connect = connect;
        this.commands = commands;
    }

    static RedisConnector standalone(RedisClient client, RedisURI uri) {
        return new RedisConnector(client, c -> ((RedisClient) c).connect(uri),
                c -> ((StatefulRedisConnection<String, String>) c).sync());
    }

    static RedisConnector cluster(RedisClusterClient client) {
        return new RedisConnector(client, c -> ((RedisClusterClient) c).connect(),
                c -> ((StatefulRedisClusterConnection<String, String>) c).sync());
    }

    RedisClusterCommands<String, String> commands() {
        StatefulConnection<String, String> c = connection;
        if (c == null) {
            synchronized (this) {
                c = connection;
                if (c == null) {
                    c = connect.apply(client);
                    connection = c;
                }
            }
        }
        return commands.apply(c);
    }

    @Override
    public void close() {
        StatefulConnection<String, String> c = connection;
        if (c != null) {
            c.close();
        }
        client.shutdown();
    }
}
