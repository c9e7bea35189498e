package io.seatlock.lock.autoconfigure;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.redis.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;

import java.time.Duration;
import java.util.List;

/** The lock on Lettuce; loaded only when Lettuce carries the lock, so Lettuce may be absent otherwise. */
final class LettuceLocks {

    private LettuceLocks() {
    }

    static RedisLockClient create(RedisEndpoints endpoints, Duration commandTimeout, Duration clusterRefresh,
                                  RedisLockSettings settings, LockListener listener) {
        SslOptions ssl = endpoints.ssl() == null ? null : sslOptions(endpoints.ssl());
        if (endpoints.url() != null) {
            return RedisLockClient.over(
                    LettuceTransport.standalone(RedisURI.create(endpoints.url()), commandTimeout, ssl),
                    settings, listener);
        }
        if (endpoints.cluster()) {
            List<RedisURI> seeds = endpoints.nodes().stream()
                    .map(n -> secured(RedisURI.builder().withHost(n.host()).withPort(n.port()), endpoints)).toList();
            return RedisLockClient.over(LettuceTransport.cluster(seeds, commandTimeout, ssl, clusterRefresh), settings, listener);
        }
        RedisURI.Builder builder;
        if (endpoints.sentinelMaster() != null) {
            builder = RedisURI.builder().withSentinelMasterId(endpoints.sentinelMaster());
            endpoints.nodes().forEach(n -> builder.withSentinel(n.host(), n.port()));
        } else {
            RedisEndpoints.Node node = endpoints.nodes().get(0);
            builder = RedisURI.builder().withHost(node.host()).withPort(node.port());
        }
        return RedisLockClient.over(
                LettuceTransport.standalone(secured(builder.withDatabase(endpoints.database()), endpoints), commandTimeout,
                ssl), settings, listener);
    }

    private static RedisURI secured(RedisURI.Builder builder, RedisEndpoints endpoints) {
        if (endpoints.password() != null) {
            if (endpoints.username() != null) {
                builder.withAuthentication(endpoints.username(), endpoints.password());
            } else {
                builder.withPassword(endpoints.password().toCharArray());
            }
        }
        return builder.withSsl(endpoints.tls()).build();
    }

    /** The bundle's key and trust material, protocols and ciphers, as Spring's own Lettuce client takes them. */
    private static @Nullable SslOptions sslOptions(SslBundle bundle) {
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider()
                .keyManager(bundle.getManagers().getKeyManagerFactory())
                .trustManager(bundle.getManagers().getTrustManagerFactory());
        if (bundle.getOptions().getEnabledProtocols() != null) {
            ssl.protocols(bundle.getOptions().getEnabledProtocols());
        }
        if (bundle.getOptions().getCiphers() != null) {
            ssl.cipherSuites(bundle.getOptions().getCiphers());
        }
        return ssl.build();
    }
}
