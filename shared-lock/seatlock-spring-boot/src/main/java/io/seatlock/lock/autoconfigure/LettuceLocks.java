package io.seatlock.lock.autoconfigure;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.redis.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.RedisTimeouts;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;

import java.time.Duration;
import java.util.List;

/** The lock on Lettuce; loaded only when Lettuce carries the lock, so Lettuce may be absent otherwise. */
final class LettuceLocks {

    private LettuceLocks() {
    }

    static RedisLockClient create(RedisEndpoints endpoints, RedisTimeouts timeouts, Duration clusterRefresh,
                                  RedisLockSettings settings, LockListener listener) {
        SslOptions ssl = endpoints.ssl() == null ? null : sslOptions(endpoints.ssl());
        if (endpoints.url() != null) {
            return RedisLockClient.over(
                    LettuceTransport.standalone(RedisURI.create(endpoints.url()), timeouts, ssl),
                    settings, listener);
        }
        if (endpoints.cluster()) {
            List<RedisURI> seeds = endpoints.nodes().stream()
                    .map(n -> secured(RedisURI.builder().withHost(n.host()).withPort(n.port()), endpoints)).toList();
            return RedisLockClient.over(LettuceTransport.cluster(seeds, timeouts, ssl, clusterRefresh), settings, listener);
        }
        RedisURI.Builder builder;
        RedisEndpoints.Sentinel sentinel = endpoints.sentinel();
        if (sentinel != null) {
            builder = RedisURI.builder().withSentinelMasterId(sentinel.master());
            // the Sentinels with their own credentials; secured() below gives them the master's TLS setting too
            endpoints.nodes().forEach(n -> builder.withSentinel(authenticated(
                    RedisURI.builder().withHost(n.host()).withPort(n.port()), sentinel.username(), sentinel.password()).build()));
        } else {
            RedisEndpoints.Node node = endpoints.nodes().get(0);
            builder = RedisURI.builder().withHost(node.host()).withPort(node.port());
        }
        return RedisLockClient.over(
                LettuceTransport.standalone(secured(builder.withDatabase(endpoints.database()), endpoints), timeouts, ssl), settings, listener);
    }

    private static RedisURI secured(RedisURI.Builder builder, RedisEndpoints endpoints) {
        return authenticated(builder, endpoints.username(), endpoints.password()).withSsl(endpoints.tls()).build();
    }

    private static RedisURI.Builder authenticated(RedisURI.Builder builder, @Nullable String username,
                                                  @Nullable String password) {
        if (password != null) {
            if (username != null) {
                builder.withAuthentication(username, password);
            } else {
                builder.withPassword(password.toCharArray());
            }
        }
        return builder;
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
