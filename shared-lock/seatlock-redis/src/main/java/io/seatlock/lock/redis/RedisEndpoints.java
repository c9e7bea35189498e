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
import java.util.Objects;
import java.util.Set;

/**
 * Where Redis is, whichever client carries the lock's commands: a URL (read by the client itself), or nodes with
 * their login and TLS. Parsed from a URL ({@link #of}) or a list of Cluster seeds ({@link #clusterOf}), or built in
 * code ({@link #server}, {@link #sentinels}, {@link #cluster}, then {@code with…} for a login, a database or TLS);
 * each transport module makes its transport from it ({@code LettuceTransport.of}, {@code JedisTransport.of}), with
 * the same Sentinel, Cluster, TLS and ACL behaviour everywhere. Immutable; equal when every part is. Its
 * {@code toString} and messages never quote a password.
 */
public final class RedisEndpoints {

    private final @Nullable String url;
    private final List<Node> nodes;
    private final boolean cluster;
    private final @Nullable Sentinel sentinel;
    private final @Nullable String username;
    private final @Nullable String password;
    private final int database;
    private final boolean tls;
    private final @Nullable TlsMaterial tlsKeys;

    private RedisEndpoints(@Nullable String url, List<Node> nodes, boolean cluster, @Nullable Sentinel sentinel,
                           @Nullable String username, @Nullable String password, int database, boolean tls,
                           @Nullable TlsMaterial tlsKeys) {
        this.nodes = List.copyOf(nodes);
        if (url == null && this.nodes.isEmpty()) {
            throw new IllegalArgumentException("a Redis needs a URL or at least one node");
        }
        if (database < 0) {
            throw new IllegalArgumentException("a Redis database is a number from 0, was " + database);
        }
        this.url = url;
        this.cluster = cluster;
        this.sentinel = sentinel;
        this.username = username;
        this.password = password;
        this.database = database;
        this.tls = tls;
        this.tlsKeys = tlsKeys;
    }

    /**
     * One Redis server.
     *
     * @param node where it listens
     * @return the server, without login, database 0, without TLS
     */
    public static RedisEndpoints server(Node node) {
        return new RedisEndpoints(null, List.of(node), false, null, null, null, 0, false, null);
    }

    /**
     * A Sentinel-managed master: the Sentinels to ask, the master's name and the Sentinels' own login.
     *
     * @param sentinels some of the Sentinels, at least one
     * @param master    the master's name and how to log in to the Sentinels
     * @return the master, without a login of its own, database 0, without TLS
     */
    public static RedisEndpoints sentinels(List<Node> sentinels, Sentinel master) {
        return new RedisEndpoints(null, sentinels, false, master, null, null, 0, false, null);
    }

    /**
     * A Redis Cluster.
     *
     * @param seeds some of its nodes, at least one
     * @return the cluster, without login, without TLS
     */
    public static RedisEndpoints cluster(List<Node> seeds) {
        return new RedisEndpoints(null, seeds, true, null, null, null, 0, false, null);
    }

    /**
     * The same Redis with a login (the master's, for Sentinels).
     *
     * @param user   the ACL user, or null for the default user
     * @param secret the password, or null for none
     * @return new endpoints
     */
    public RedisEndpoints withLogin(@Nullable String user, @Nullable String secret) {
        return new RedisEndpoints(url, nodes, cluster, sentinel, user, secret, database, tls, tlsKeys);
    }

    /**
     * The same Redis with another database.
     *
     * @param index the database index, from 0 (a cluster has only 0)
     * @return new endpoints
     * @throws IllegalArgumentException for a negative index
     */
    public RedisEndpoints withDatabase(int index) {
        return new RedisEndpoints(url, nodes, cluster, sentinel, username, password, index, tls, tlsKeys);
    }

    /**
     * The same Redis over TLS.
     *
     * @param material trust, keys, protocols and ciphers; null for the JVM's
     * @return new endpoints
     */
    public RedisEndpoints withTls(@Nullable TlsMaterial material) {
        return new RedisEndpoints(url, nodes, cluster, sentinel, username, password, database, true, material);
    }

    /**
     * The URL, where the endpoints were read from one.
     *
     * @return a {@code redis://}, {@code rediss://}, {@code redis-sentinel://} or {@code rediss-sentinel://} URL, or
     *         null when the nodes say where
     */
    public @Nullable String url() {
        return url;
    }

    /**
     * The server, the Sentinels, or the cluster's seeds.
     *
     * @return the nodes; empty when {@link #url()} says where
     */
    public List<Node> nodes() {
        return nodes;
    }

    /**
     * Whether the nodes are a Redis Cluster's.
     *
     * @return true for a cluster
     */
    public boolean cluster() {
        return cluster;
    }

    /**
     * The master's name and the Sentinels' own login when the nodes are Sentinels.
     *
     * @return the Sentinel set-up, or null
     */
    public @Nullable Sentinel sentinel() {
        return sentinel;
    }

    /**
     * The ACL user.
     *
     * @return the user, or null
     */
    public @Nullable String username() {
        return username;
    }

    /**
     * The password, for the transports that log in with it (never printed).
     *
     * @return the password, or null
     */
    public @Nullable String password() {
        return password;
    }

    /**
     * The database index (not on a cluster).
     *
     * @return the index
     */
    public int database() {
        return database;
    }

    /**
     * Whether the nodes are reached over TLS (a URL says so itself: {@link #tlsAsked()}).
     *
     * @return true for TLS
     */
    public boolean tls() {
        return tls;
    }

    /**
     * The TLS material.
     *
     * @return trust, keys, protocols and ciphers, or null for the JVM's
     */
    public @Nullable TlsMaterial tlsKeys() {
        return tlsKeys;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RedisEndpoints that && Objects.equals(url, that.url) && nodes.equals(that.nodes)
                && cluster == that.cluster && Objects.equals(sentinel, that.sentinel)
                && Objects.equals(username, that.username) && Objects.equals(password, that.password)
                && database == that.database && tls == that.tls && Objects.equals(tlsKeys, that.tlsKeys);
    }

    @Override
    public int hashCode() {
        return Objects.hash(url, nodes, cluster, sentinel, username, password, database, tls, tlsKeys);
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
