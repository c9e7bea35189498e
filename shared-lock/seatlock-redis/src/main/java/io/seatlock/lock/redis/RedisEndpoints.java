package io.seatlock.lock.redis;

import org.jspecify.annotations.Nullable;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where Redis is, whichever client carries the lock's commands: a URL (read by the client itself), or nodes with
 * their login and TLS. Parsed from a URL or a list of Cluster seeds, or built in code; each transport module makes
 * its transport from it ({@code LettuceTransport.of}, {@code JedisTransport.of}), with the same Sentinel, Cluster,
 * TLS and ACL behaviour everywhere. Its {@code toString} and messages never quote a password.
 *
 * @param url      a {@code redis://}, {@code rediss://}, {@code redis-sentinel://} or {@code rediss-sentinel://} URL,
 *                 or null when the fields below say where
 * @param nodes    the server, the Sentinels, or the cluster's seeds
 * @param cluster  whether the nodes are a Redis Cluster's
 * @param sentinel the master's name and the Sentinels' own login when the nodes are Sentinels, else null
 * @param username ACL user, or null
 * @param password password, or null
 * @param database database index (not on a cluster)
 * @param tls      whether to use TLS
 * @param tlsKeys  TLS material (trust, keys, protocols, ciphers); null for the JVM's
 */
public record RedisEndpoints(@Nullable String url, List<Node> nodes, boolean cluster, @Nullable Sentinel sentinel,
                             @Nullable String username, @Nullable String password, int database, boolean tls,
                             @Nullable TlsMaterial tlsKeys) {

    /**
     * Checks the nodes.
     *
     * @param url      see above
     * @param nodes    see above; at least one unless {@code url} says where
     * @param cluster  see above
     * @param sentinel see above
     * @param username see above
     * @param password see above
     * @param database see above
     * @param tls      see above
     * @param tlsKeys  see above
     * @throws IllegalArgumentException without a URL or a node
     */
    public RedisEndpoints {
        nodes = List.copyOf(nodes);
        if (url == null && nodes.isEmpty()) {
            throw new IllegalArgumentException("a Redis needs a URL or at least one node");
        }
    }

    /**
     * Key and trust material and the protocols and ciphers to offer, from wherever the application keeps them.
     *
     * @param keys      this client's key material, or null for none
     * @param trust     which servers to trust, or null for the JVM's default trust
     * @param protocols TLS protocols to offer, or null for the JVM's
     * @param ciphers   cipher suites to offer, or null for the JVM's
     */
    public record TlsMaterial(@Nullable KeyManagerFactory keys, @Nullable TrustManagerFactory trust,
                              @Nullable List<String> protocols, @Nullable List<String> ciphers) {

        /**
         * Keeps copies of the lists.
         *
         * @param keys      see above
         * @param trust     see above
         * @param protocols see above
         * @param ciphers   see above
         */
        public TlsMaterial {
            protocols = protocols == null ? null : List.copyOf(protocols);
            ciphers = ciphers == null ? null : List.copyOf(ciphers);
        }
    }

    /**
     * Where the lock connects, for log lines and start-up reports: never a login.
     *
     * @return e.g. {@code redis://cache:6379/0}, {@code Sentinels 10.0.0.5:26379 of master mymaster over TLS}
     */
    public String describe() {
        if (url != null) {
            URI uri = URI.create(url);
            String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
            return uri.getScheme() + "://" + authority.substring(authority.lastIndexOf('@') + 1)
                    + (uri.getRawPath() == null ? "" : uri.getRawPath())
                    + (uri.getRawFragment() == null ? "" : "#" + uri.getRawFragment());
        }
        String where = String.join(",", nodes.stream().map(n -> n.host() + ":" + n.port()).toList());
        String what = cluster ? "Redis Cluster seeds " + where
                : sentinel != null ? "Sentinels " + where + " of master " + sentinel.master() : where;
        return what + (tls ? " over TLS" : "");
    }

    /**
     * The server itself, or a Cluster's first seed; null for Sentinels, which are not the server.
     *
     * @return its host and port, or null
     */
    public @Nullable Node firstNode() {
        if (url != null) {
            URI uri = URI.create(url);
            boolean sentinels = uri.getScheme().toLowerCase(Locale.ROOT).endsWith("sentinel");
            return sentinels || uri.getHost() == null ? null : new Node(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 6379);
        }
        return sentinel != null || nodes.isEmpty() ? null : nodes.get(0);
    }

    /** Where, never with a login: a record's own {@code toString} would print the password. */
    @Override
    public String toString() {
        return describe();
    }

    /**
     * Whether the lock asks for TLS.
     *
     * @return true for {@code rediss} URLs and TLS settings
     */
    public boolean tlsAsked() {
        return url != null ? url.regionMatches(true, 0, "rediss", 0, 6) : tls;
    }

    /**
     * A host and port.
     *
     * @param host the host
     * @param port the port
     */
    public record Node(String host, int port) {
    }

    /**
     * A Sentinel-managed master: its name, and how to log in to the Sentinels themselves (Spring's
     * {@code spring.data.redis.sentinel.username} and {@code .password}), which may differ from the master's.
     *
     * @param master   the master's name in the Sentinels' configuration
     * @param username the Sentinels' ACL user, or null
     * @param password the Sentinels' password, or null
     */
    public record Sentinel(String master, @Nullable String username, @Nullable String password) {

        /** The master and the user, never the password: a record's own {@code toString} would print it. */
        @Override
        public String toString() {
            return "Sentinel[master=" + master + ", username=" + username + ", password=" + hidden(password) + "]";
        }
    }

    /** What a {@code toString} shows of a password: whether there is one. */
    private static String hidden(@Nullable String password) {
        return password == null ? "null" : "(hidden)";
    }

    /** The schemes of a Redis URL, as Lettuce reads them; Jedis' are read to match. */
    private static final Set<String> URL_SCHEMES = Set.of("redis", "rediss", "redis-sentinel", "rediss-sentinel");

    /**
     * A Redis URL, checked here for both clients: one that either would misread (Lettuce reads {@code host:notaport}
     * as a host name on its default port, Jedis takes any scheme) is refused, and no message quotes the URL, whose
     * login a start-up failure would otherwise write to the log.
     *
     * @param url {@code redis://[user:password@]host:port[/database]}, {@code rediss://} for TLS,
     *            {@code redis-sentinel://[user:password@]host:port[,host:port...][/database]#master} (the login is
     *            the master's), {@code rediss-sentinel://} for TLS to the Sentinels and the master
     * @return where it says
     * @throws IllegalArgumentException for a URL that is not one, a scheme not Redis', or a host or port missing or bad
     */
    public static RedisEndpoints of(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw badUrl("is not a valid URL (" + e.getReason() + " at index " + e.getIndex() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!URL_SCHEMES.contains(scheme)) {
            throw badUrl("must start with redis://, rediss://, redis-sentinel:// or rediss-sentinel://, not '" + scheme
                    + "'");
        }
        String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
        String hosts = authority.substring(authority.lastIndexOf('@') + 1);
        for (String hostAndPort : hosts.split(",", -1)) {
            int colon = hostAndPort.lastIndexOf(':');
            String host = colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
            if (host.isBlank()) {
                throw badUrl("names no host");
            }
            if (colon >= 0 && !validPort(hostAndPort.substring(colon + 1))) {
                throw badUrl("has a port that is not a number from 1 to 65535, for host " + host);
            }
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (path.length() > 1 && !path.substring(1).chars().allMatch(Character::isDigit)) {
            throw badUrl("has a database that is not a number");
        }
        return new RedisEndpoints(url, List.of(), false, null, null, null, 0, false, null);
    }

    private static boolean validPort(String port) {
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit)) {
            return false;
        }
        return validPort(Integer.parseInt(port));
    }

    private static boolean validPort(int port) {
        return port >= 1 && port <= 65_535;
    }

    private static IllegalArgumentException badUrl(String what) {
        return new IllegalArgumentException("the Redis URL " + what);
    }

    /**
     * A Redis Cluster's seeds: each {@code host:port}, or {@code redis://[[user:]password@]host:port}
     * ({@code rediss://} for TLS) where the cluster asks a login; every seed with the same scheme and login.
     *
     * @param seeds some of the cluster's nodes
     * @return the cluster
     * @throws IllegalArgumentException for a seed that is neither, or seeds that differ in scheme or login
     */
    public static RedisEndpoints clusterOf(List<String> seeds) {
        List<Node> nodes = new ArrayList<>();
        Set<String> schemes = new HashSet<>();
        Set<Login> logins = new HashSet<>();
        for (String seed : seeds) {
            if (!seed.contains("://")) {
                nodes.add(node(seed));
                schemes.add("redis");
                logins.add(Login.NONE);
                continue;
            }
            URI uri;
            try {
                uri = URI.create(seed);
            } catch (IllegalArgumentException e) { // its message would quote the seed, password and all
                throw new IllegalArgumentException("a cluster seed is not a valid URL");
            }
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("redis") && !scheme.equals("rediss") || uri.getHost() == null
                    || !validPort(uri.getPort())) {
                throw new IllegalArgumentException("a cluster seed must be host:port or "
                        + "redis[s]://[[user:]password@]host:port, was one with scheme '" + scheme + "'");
            }
            nodes.add(new Node(uri.getHost(), uri.getPort()));
            schemes.add(scheme);
            logins.add(Login.of(uri.getRawUserInfo()));
        }
        if (schemes.size() > 1 || logins.size() > 1) {
            throw new IllegalArgumentException("the cluster seeds differ in scheme, user or password; "
                    + "give every seed the same");
        }
        Login login = logins.stream().findFirst().orElse(Login.NONE);
        return new RedisEndpoints(null, nodes, true, null, login.username(), login.password(), 0, schemes.contains("rediss"),
                null);
    }

    /**
     * The login part of a Redis URL, read as Lettuce reads it: {@code user:password}, {@code :password} or
     * {@code password}, each part percent-decoded.
     *
     * @param username the ACL user, or null
     * @param password the password, or null
     */
    public record Login(@Nullable String username, @Nullable String password) {

        static final Login NONE = new Login(null, null);

        /**
         * Reads a URL's login part.
         *
         * @param rawUserInfo the URL's raw user info, or null
         * @return the login (both parts null where there is none)
         */
        public static Login of(@Nullable String rawUserInfo) {
            if (rawUserInfo == null || rawUserInfo.isEmpty()) {
                return NONE;
            }
            int colon = rawUserInfo.indexOf(':');
            if (colon < 0) {
                return new Login(null, decode(rawUserInfo));
            }
            return new Login(colon == 0 ? null : decode(rawUserInfo.substring(0, colon)),
                    decode(rawUserInfo.substring(colon + 1)));
        }

        private static String decode(String part) {
            return URLDecoder.decode(part, StandardCharsets.UTF_8);
        }

        /** The user, never the password: a record's own {@code toString} would print it. */
        @Override
        public String toString() {
            return "Login[username=" + username + ", password=" + hidden(password) + "]";
        }
    }

    /**
     * A {@code host:port}.
     *
     * @param hostAndPort the text
     * @return the node
     * @throws IllegalArgumentException unless it is host:port with a port from 1 to 65535
     */
    public static Node node(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0 || !validPort(hostAndPort.substring(colon + 1))) {
            throw new IllegalArgumentException("a node must be host:port, the port a number from 1 to 65535, was '"
                    + hostAndPort + "'");
        }
        return new Node(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
