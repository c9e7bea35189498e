package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.redis.RedisTimeouts;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** {@link RedisEndpoints} as Jedis takes them: nodes, a client config with login and TLS, Sentinel URLs read as Lettuce reads them. */
final class JedisEndpoints {

    private JedisEndpoints() {
    }

    static JedisTransport transport(RedisEndpoints endpoints, RedisTimeouts timeouts, Duration clusterRefresh) {
        if (endpoints.url() != null) {
            return fromUrl(endpoints.url(), timeouts);
        }
        Set<HostAndPort> nodes = endpoints.nodes().stream().map(n -> new HostAndPort(n.host(), n.port()))
                .collect(Collectors.toSet());
        JedisClientConfig config = config(endpoints, endpoints.username(), endpoints.password(), endpoints.database());
        if (endpoints.cluster()) {
            return JedisTransport.cluster(nodes, config, timeouts, clusterRefresh);
        }
        RedisEndpoints.Sentinel sentinel = endpoints.sentinel();
        if (sentinel != null) {
            // the Sentinels with their own credentials, and with TLS exactly when the master is, as Spring's clients do
            return JedisTransport.sentinel(sentinel.master(), nodes, config,
                    config(endpoints, sentinel.username(), sentinel.password(), 0), timeouts);
        }
        return JedisTransport.standalone(nodes.iterator().next(), config, timeouts);
    }

    /**
     * {@code redis://} and {@code rediss://} as Jedis reads them; {@code redis-sentinel://[user:password@]host:port
     * [,host:port...][/database]#master} as Lettuce does (the user and password are the master's), and
     * {@code rediss-sentinel://} alike with TLS to the Sentinels and the master, so one URL serves both clients.
     */
    private static JedisTransport fromUrl(String url, RedisTimeouts timeouts) {
        URI uri = URI.create(url);
        boolean tls = "rediss-sentinel".equalsIgnoreCase(uri.getScheme());
        if (!tls && !"redis-sentinel".equalsIgnoreCase(uri.getScheme())) {
            return JedisTransport.standalone(uri, timeouts);
        }
        String master = uri.getFragment();
        String authority = uri.getRawAuthority();
        if (master == null || master.isBlank() || authority == null) {
            throw new IllegalArgumentException("a redis-sentinel:// URL needs host:port[,host:port...] and "
                    + "#master-name"); // not quoted: it may hold a password
        }
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder().ssl(tls);
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            RedisEndpoints.Login login = RedisEndpoints.Login.of(authority.substring(0, at));
            config.user(login.username()).password(login.password());
            authority = authority.substring(at + 1);
        }
        String path = uri.getPath();
        if (path != null && path.length() > 1) {
            config.database(Integer.parseInt(path.substring(1)));
        }
        Set<HostAndPort> sentinels = Arrays.stream(authority.split(",")).map(RedisEndpoints::node)
                .map(n -> new HostAndPort(n.host(), n.port())).collect(Collectors.toSet());
        return JedisTransport.sentinel(master, sentinels, config.build(), DefaultJedisClientConfig.builder().ssl(tls).build(),
                timeouts);
    }

    /** Who to log in as, and TLS as the endpoints ask, with their key and trust material where they have some. */
    private static JedisClientConfig config(RedisEndpoints endpoints, @Nullable String user, @Nullable String password,
                                            int database) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder().user(user).password(password)
                .database(database).ssl(endpoints.tls());
        RedisEndpoints.TlsMaterial tls = endpoints.tlsKeys();
        if (tls != null) {
            config.sslSocketFactory(sslContext(tls).getSocketFactory());
            SSLParameters parameters = new SSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the server's name is checked, as without material
            if (tls.protocols() != null) {
                parameters.setProtocols(tls.protocols().toArray(String[]::new));
            }
            if (tls.ciphers() != null) {
                parameters.setCipherSuites(tls.ciphers().toArray(String[]::new));
            }
            config.sslParameters(parameters);
        }
        return config.build();
    }

    private static SSLContext sslContext(RedisEndpoints.TlsMaterial tls) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(tls.keys() == null ? null : tls.keys().getKeyManagers(),
                    tls.trust() == null ? null : tls.trust().getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("the TLS material cannot make a TLS context: " + e.getMessage(), e);
        }
    }
}
