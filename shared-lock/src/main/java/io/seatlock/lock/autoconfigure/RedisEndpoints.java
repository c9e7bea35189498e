package io.seatlock.lock.autoconfigure;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

import java.util.List;

/**
 * Where the lock connects, read from the same Spring Boot Redis settings the app's own client uses
 * (host and port, {@code url} including {@code rediss://}, Sentinel, Cluster, SSL bundles), so the lock,
 * the app and the Redis health check talk to one server, with TLS whenever the app's client uses it.
 */
record RedisEndpoints(List<RedisURI> nodes, boolean cluster, SslOptions ssl) {

    static RedisEndpoints of(String url) {
        RedisURI uri = RedisURI.create(url);
        return new RedisEndpoints(List.of(uri), false, null);
    }

    static RedisEndpoints clusterOf(List<String> hostsAndPorts) {
        return new RedisEndpoints(hostsAndPorts.stream().map(RedisEndpoints::node).toList(), true, null);
    }

    /**
     * @param springUrlUsesTls whether {@code spring.data.redis.url} is a {@code rediss://} URL: Spring's own
     *                         client then uses TLS even though the connection details carry no SSL bundle
     */
    static RedisEndpoints fromSpring(DataRedisConnectionDetails details, boolean springUrlUsesTls) {
        SslBundle bundle = details.getSslBundle();
        boolean tls = bundle != null || springUrlUsesTls;
        List<RedisURI> nodes;
        boolean cluster = false;
        if (details.getCluster() != null) {
            cluster = true;
            nodes = details.getCluster().getNodes().stream()
                    .map(n -> secured(RedisURI.builder().withHost(n.host()).withPort(n.port()), details, tls)).toList();
        } else if (details.getSentinel() != null) {
            DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
            RedisURI.Builder builder = RedisURI.builder().withSentinelMasterId(sentinel.getMaster())
                    .withDatabase(sentinel.getDatabase());
            sentinel.getNodes().forEach(n -> builder.withSentinel(n.host(), n.port()));
            nodes = List.of(secured(builder, details, tls));
        } else {
            DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
            nodes = List.of(secured(RedisURI.builder().withHost(standalone.getHost()).withPort(standalone.getPort())
                    .withDatabase(standalone.getDatabase()), details, tls));
        }
        return new RedisEndpoints(nodes, cluster, bundle == null ? null : sslOptions(bundle));
    }

    private static RedisURI secured(RedisURI.Builder builder, DataRedisConnectionDetails details, boolean tls) {
        if (details.getPassword() != null) {
            if (details.getUsername() != null) {
                builder.withAuthentication(details.getUsername(), details.getPassword());
            } else {
                builder.withPassword(details.getPassword().toCharArray());
            }
        }
        return builder.withSsl(tls).build();
    }

    /** The bundle's key and trust material, protocols and ciphers, as Spring's own Lettuce client takes them. */
    private static SslOptions sslOptions(SslBundle bundle) {
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

    static RedisURI node(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("cluster node must be host:port, was '" + hostAndPort + "'");
        }
        return RedisURI.create(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
