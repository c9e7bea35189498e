package io.seatlock.lock.redis.lettuce;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.spi.RedisTransport;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;

/** {@link RedisEndpoints} as Lettuce takes them: URIs with their login and TLS, and TLS options. */
final class LettuceEndpoints {

    private LettuceEndpoints() {
    }

    static RedisTransport transport(RedisEndpoints endpoints, RedisTimeouts timeouts, Duration clusterRefresh) {
        SslOptions ssl = endpoints.tlsKeys() == null ? null : sslOptions(endpoints.tlsKeys());
        if (endpoints.url() != null) {
            return LettuceTransport.standalone(RedisURI.create(endpoints.url()), timeouts, ssl);
        }
        if (endpoints.cluster()) {
            List<RedisURI> seeds = endpoints.nodes().stream()
                    .map(n -> secured(RedisURI.builder().withHost(n.host()).withPort(n.port()), endpoints)).toList();
            return LettuceTransport.cluster(seeds, timeouts, ssl, clusterRefresh);
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
        return LettuceTransport.standalone(secured(builder.withDatabase(endpoints.database()), endpoints), timeouts, ssl);
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

    /** The key and trust material, protocols and ciphers, as Spring's own Lettuce client takes an SSL bundle's. */
    private static SslOptions sslOptions(RedisEndpoints.TlsMaterial tls) {
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
        if (tls.keys() != null) {
            ssl.keyManager(tls.keys());
        }
        if (tls.trust() != null) {
            ssl.trustManager(tls.trust());
        }
        if (tls.protocols() != null) {
            ssl.protocols(tls.protocols().toArray(String[]::new));
        }
        if (tls.ciphers() != null) {
            ssl.cipherSuites(tls.ciphers().toArray(String[]::new));
        }
        return ssl.build();
    }
}
