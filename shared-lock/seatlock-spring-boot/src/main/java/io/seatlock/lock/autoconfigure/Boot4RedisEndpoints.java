package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisEndpoints;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.core.env.Environment;

/** Spring Data Redis' settings as Spring Boot 4 keeps them. */
final class Boot4RedisEndpoints extends SpringRedisEndpoints<DataRedisConnectionDetails> {

    private final ObjectProvider<DataRedisProperties> properties;

    Boot4RedisEndpoints(ObjectProvider<DataRedisConnectionDetails> details, ObjectProvider<DataRedisProperties> properties,
                        Environment environment) {
        super(details, environment);
        this.properties = properties;
    }

    @Override
    RedisEndpoints endpoints() {
        DataRedisProperties springProperties = properties.getIfAvailable();
        return fromSpring(details.getObject(), springProperties != null && tlsUrl(springProperties.getUrl()));
    }

    static RedisEndpoints fromSpring(DataRedisConnectionDetails details, boolean springTls) {
        if (details.getCluster() != null) {
            return completed(RedisEndpoints.cluster(details.getCluster().getNodes().stream()
                            .map(n -> node(n.host(), n.port())).toList()),
                    details.getUsername(), details.getPassword(), 0, details.getSslBundle(), springTls);
        }
        if (details.getSentinel() != null) {
            DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
            return completed(RedisEndpoints.sentinels(sentinel.getNodes().stream().map(n -> node(n.host(), n.port())).toList(),
                            new RedisEndpoints.Sentinel(sentinel.getMaster(), sentinel.getUsername(), sentinel.getPassword())),
                    details.getUsername(), details.getPassword(), sentinel.getDatabase(), details.getSslBundle(), springTls);
        }
        DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
        return completed(RedisEndpoints.server(node(standalone.getHost(), standalone.getPort())),
                details.getUsername(), details.getPassword(), standalone.getDatabase(), details.getSslBundle(), springTls);
    }
}
