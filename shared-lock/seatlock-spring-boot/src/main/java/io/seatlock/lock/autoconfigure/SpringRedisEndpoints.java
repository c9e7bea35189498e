package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisEndpoints;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.core.env.Environment;

import java.util.List;

/**
 * Where the application's own Spring Data Redis client connects (host and port, url including rediss://,
 * Sentinel, Cluster, SSL bundles), for a lock with no Redis of its own configured: the lock, the application
 * and the Redis health check then talk to one server, with TLS whenever the application's client uses it. Asked only
 * then, so an application that sets {@code seatlock.lock.redis-url} never needs a {@code spring.data.redis.*} setting.
 * Spring Boot 3.5 and 4.x keep these settings in classes of different names; a subclass per line reads them.
 *
 * @param <D> the line's connection details
 */
abstract class SpringRedisEndpoints<D> {

    private static final List<String> SPRING_REDIS_LOCATIONS = List.of("spring.data.redis.host",
            "spring.data.redis.url", "spring.data.redis.sentinel.nodes", "spring.data.redis.cluster.nodes");
    /** The simple names of the connection details each Boot line makes from {@code spring.data.redis.*}. */
    static final List<String> FROM_PROPERTIES = List.of("PropertiesDataRedisConnectionDetails",
            "PropertiesRedisConnectionDetails");

    /** Boot's connection details, where the application has any. */
    final ObjectProvider<D> details;
    private final Environment environment;

    SpringRedisEndpoints(ObjectProvider<D> details, Environment environment) {
        this.details = details;
        this.environment = environment;
    }

    /** Spring's Redis, read from Boot's connection details, where {@link #configured()}. */
    abstract RedisEndpoints endpoints();

    /**
     * Whether the application names a Redis: Boot's connection details from anywhere but its properties (Testcontainers,
     * a user's), or properties that say where. Spring would otherwise default to localhost:6379, and each replica
     * would lock on a Redis of its own, which is no lock.
     */
    final boolean configured() {
        D spring = details.getIfAvailable();
        return spring != null && (!FROM_PROPERTIES.contains(spring.getClass().getSimpleName())
                || SPRING_REDIS_LOCATIONS.stream().anyMatch(environment::containsProperty));
    }

    /**
     * Completes what a line's details say.
     *
     * @param springTls whether Spring's own client uses TLS though the connection details carry no SSL bundle (a
     *                  {@code rediss://} URL in {@code spring.data.redis.url}, say)
     */
    static RedisEndpoints completed(RedisEndpoints where, @Nullable String username, @Nullable String password,
                                    int database, @Nullable SslBundle ssl, boolean springTls) {
        boolean tls = ssl != null || springTls;
        RedisEndpoints.TlsMaterial bundle = ssl == null ? null : new RedisEndpoints.TlsMaterial(
                ssl.getManagers().getKeyManagerFactory(), ssl.getManagers().getTrustManagerFactory(),
                listOrNull(ssl.getOptions().getEnabledProtocols()), listOrNull(ssl.getOptions().getCiphers()));
        RedisEndpoints login = where.withLogin(username, password).withDatabase(database);
        return tls ? login.withTls(bundle) : login;
    }

    /** Whether {@code spring.data.redis.url} is a {@code rediss://} URL. */
    static boolean tlsUrl(@Nullable String springUrl) {
        return springUrl != null && springUrl.regionMatches(true, 0, "rediss:", 0, 7);
    }

    static RedisEndpoints.Node node(String host, int port) {
        return new RedisEndpoints.Node(host, port);
    }

    private static @Nullable List<String> listOrNull(String @Nullable [] values) {
        return values == null ? null : List.of(values);
    }
}
