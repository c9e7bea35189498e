package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisEndpoints;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.core.env.Environment;

import java.util.List;

/**
 * Where the application's own Spring Data Redis client connects (host and port, url including rediss://,
 * Sentinel, Cluster, SSL bundles), for a lock with no Redis of its own configured: the lock, the application
 * and the Redis health check then talk to one server, with TLS whenever the application's client uses it. Asked only then, so an application that sets {@code seatlock.lock.redis-url} never needs a
 * {@code spring.data.redis.*} setting.
 */
final class SpringRedisEndpoints {

    private static final List<String> SPRING_REDIS_LOCATIONS = List.of("spring.data.redis.host",
            "spring.data.redis.url", "spring.data.redis.sentinel.nodes", "spring.data.redis.cluster.nodes");

    private final ObjectProvider<DataRedisConnectionDetails> details;
    private final ObjectProvider<DataRedisProperties> properties;
    private final Environment environment;

    SpringRedisEndpoints(ObjectProvider<DataRedisConnectionDetails> details, ObjectProvider<DataRedisProperties> properties,
                         Environment environment) {
        this.details = details;
        this.properties = properties;
        this.environment = environment;
    }

    /**
     * Whether the application names a Redis: Boot's connection details from anywhere but its properties (Testcontainers,
     * a user's), or properties that say where. Spring would otherwise default to localhost:6379, and each replica
     * would lock on a Redis of its own, which is no lock.
     */
    boolean configured() {
        DataRedisConnectionDetails spring = details.getIfAvailable();
        return spring != null && (!isFromProperties(spring)
                || SPRING_REDIS_LOCATIONS.stream().anyMatch(environment::containsProperty));
    }

    /** Spring's Redis, where {@link #configured()}. */
    RedisEndpoints endpoints() {
        DataRedisConnectionDetails spring = details.getObject();
        DataRedisProperties springProperties = properties.getIfAvailable();
        String url = springProperties == null ? null : springProperties.getUrl();
        return fromSpring(spring, url != null && url.regionMatches(true, 0, "rediss:", 0, 7));
    }

    /** Boot's own details read from {@code spring.data.redis.*}; any other kind (Testcontainers, a user's) is explicit. */
    private static boolean isFromProperties(DataRedisConnectionDetails details) {
        return details.getClass().getSimpleName().equals("PropertiesDataRedisConnectionDetails");
    }

    /**
     * @param springUrlUsesTls whether {@code spring.data.redis.url} is a {@code rediss://} URL: Spring's own
     *                         client then uses TLS even though the connection details carry no SSL bundle
     */
    static RedisEndpoints fromSpring(DataRedisConnectionDetails details, boolean springUrlUsesTls) {
        SslBundle ssl = details.getSslBundle();
        boolean tls = ssl != null || springUrlUsesTls;
        RedisEndpoints.TlsMaterial bundle = ssl == null ? null : new RedisEndpoints.TlsMaterial(
                ssl.getManagers().getKeyManagerFactory(), ssl.getManagers().getTrustManagerFactory(),
                listOrNull(ssl.getOptions().getEnabledProtocols()), listOrNull(ssl.getOptions().getCiphers()));
        RedisEndpoints where;
        int database = 0;
        if (details.getCluster() != null) {
            where = RedisEndpoints.cluster(nodes(details.getCluster().getNodes()));
        } else if (details.getSentinel() != null) {
            DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
            where = RedisEndpoints.sentinels(nodes(sentinel.getNodes()), new RedisEndpoints.Sentinel(
                    sentinel.getMaster(), sentinel.getUsername(), sentinel.getPassword()));
            database = sentinel.getDatabase();
        } else {
            DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
            where = RedisEndpoints.server(new RedisEndpoints.Node(standalone.getHost(), standalone.getPort()));
            database = standalone.getDatabase();
        }
        where = where.withLogin(details.getUsername(), details.getPassword()).withDatabase(database);
        return tls ? where.withTls(bundle) : where;
    }

    private static List<RedisEndpoints.Node> nodes(List<DataRedisConnectionDetails.Node> nodes) {
        return nodes.stream().map(n -> new RedisEndpoints.Node(n.host(), n.port())).toList();
    }

    private static @Nullable List<String> listOrNull(String @Nullable [] values) {
        return values == null ? null : List.of(values);
    }
}
