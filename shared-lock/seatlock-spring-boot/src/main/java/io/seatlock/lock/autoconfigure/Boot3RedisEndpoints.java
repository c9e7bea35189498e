package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisEndpoints;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.core.env.Environment;

/** Spring Data Redis' settings as Spring Boot 3.5 keeps them (its SSL bundle on each topology, not on the details). */
final class Boot3RedisEndpoints extends SpringRedisEndpoints<RedisConnectionDetails> {

    private final ObjectProvider<RedisProperties> properties;

    Boot3RedisEndpoints(ObjectProvider<RedisConnectionDetails> details, ObjectProvider<RedisProperties> properties,
                        Environment environment) {
        super(details, environment);
        this.properties = properties;
    }

    @Override
    RedisEndpoints endpoints() {
        RedisProperties springProperties = properties.getIfAvailable();
        return fromSpring(details.getObject(), springProperties != null
                && (springProperties.getSsl().isEnabled() || tlsUrl(springProperties.getUrl())));
    }

    static RedisEndpoints fromSpring(RedisConnectionDetails details, boolean springTls) {
        if (details.getCluster() != null) {
            return completed(RedisEndpoints.cluster(details.getCluster().getNodes().stream()
                            .map(n -> node(n.host(), n.port())).toList()),
                    details.getUsername(), details.getPassword(), 0, details.getCluster().getSslBundle(), springTls);
        }
        if (details.getSentinel() != null) {
            RedisConnectionDetails.Sentinel sentinel = details.getSentinel();
            return completed(RedisEndpoints.sentinels(sentinel.getNodes().stream().map(n -> node(n.host(), n.port())).toList(),
                            new RedisEndpoints.Sentinel(sentinel.getMaster(), sentinel.getUsername(), sentinel.getPassword())),
                    details.getUsername(), details.getPassword(), sentinel.getDatabase(), sentinel.getSslBundle(), springTls);
        }
        RedisConnectionDetails.Standalone standalone = details.getStandalone();
        return completed(RedisEndpoints.server(node(standalone.getHost(), standalone.getPort())),
                details.getUsername(), details.getPassword(), standalone.getDatabase(), standalone.getSslBundle(), springTls);
    }
}
