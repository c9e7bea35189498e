package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.LeaseTiming;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Settings of the lock ({@code seatlock.lock.*}), on Redis or on PostgreSQL. Values are checked where the lock is built, so a
 * bad one stops the application with a message naming it.
 *
 * @param enabled          Whether to register the lock.
 * @param keyPrefix        Put before every Redis key; give each application (and each test) its own. No braces.
 * @param instanceId       This process's name in owner tokens, leader elections and job-slot records. Defaults to
 *                         the host name and the process id, host-pid. Not ending in |waited, the mark a waiter adds
 *                         to a held lock's token.
 * @param redisUrl         Redis to lock on, e.g. rediss://user:secret@redis:6380 or
 *                         redis-sentinel://host:26379#mymaster (rediss-sentinel:// for TLS; the user and password
 *                         are the master's). When unset, Spring's spring.data.redis.* settings are used.
 * @param clusterNodes     host:port seeds of a Redis Cluster to lock on, or redis://user:password@host:port
 *                         (rediss:// for TLS) where it asks a login, the same on every seed; wins over redis-url and
 *                         Spring's settings.
 * @param clusterRefresh   How often the lock reads a Redis Cluster's layout again (besides on a redirection): after a
 *                         master fails, the lock finds the promoted replica within this of the promotion. On
 *                         Lettuce each read opens a connection to each node, so a period far below the default costs
 *                         the nodes as many connections and, over TLS, handshakes; Jedis reads on a pooled
 *                         connection to a master.
 * @param clientType       Which Redis client carries the lock's commands: lettuce or jedis (seatlock-redis-jedis).
 *                         Defaults to spring.data.redis.client-type when set, else Lettuce when it is on the class
 *                         path, else Jedis.
 * @param connectTimeout   Longest wait for a connection to Redis (TCP, TLS, login). Until the lock first reached
 *                         Redis, a call waits this on top of the command timeout, so a replica that starts cold on a
 *                         busy machine is not taken for one whose Redis is down; the lock connects while the
 *                         application starts, before the migration gate.
 * @param commandTimeout   Longest wait for Redis once connected, a reconnect included, before
 *                         LockUnavailableException.
 * @param clockDriftFactor Share of each ttl kept as the local validity safety margin, from 0 up to (not
 *                         including) 0.5.
 * @param minSafetyMargin  Smallest local validity safety margin.
 * @param minBackoff       First pause between attempts of a blocking acquire.
 * @param maxBackoff       Longest pause between attempts of a blocking acquire.
 * @param replication      Whether grants and renewals wait for replicas (Redis WAIT), to survive a failover.
 * @param store            Where the lock keeps its leases: redis, postgres or mysql (MySQL or MariaDB). Defaults to
 *                         redis when a Redis is configured (seatlock.lock.redis-url, cluster-nodes,
 *                         spring.data.redis.*, or Redis connection details of the application's own), else to the
 *                         application's database: mysql when spring.datasource.url names MySQL or MariaDB and
 *                         seatlock-mysql and its driver are on the class path, else postgres when seatlock-postgres
 *                         and the PostgreSQL driver are, else mysql when seatlock-mysql and a MySQL or MariaDB driver
 *                         are, else redis.
 * @param postgres         The PostgreSQL lock (seatlock.lock.store=postgres), on the application's database.
 * @param mysql            The MySQL/MariaDB lock (seatlock.lock.store=mysql), on the application's database.
 */
@ConfigurationProperties("seatlock.lock")
record SeatlockLockProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("seatlock:") String keyPrefix,
        @Nullable String instanceId,
        @Nullable String redisUrl,
        @DefaultValue List<String> clusterNodes,
        @DefaultValue("5s") Duration clusterRefresh,
        @Nullable ClientType clientType,
        @DefaultValue("10s") Duration connectTimeout,
        @DefaultValue(SeatlockLockProperties.DEFAULT_COMMAND_TIMEOUT) Duration commandTimeout,
        @DefaultValue("0.01") double clockDriftFactor,
        @DefaultValue("1ms") Duration minSafetyMargin,
        @DefaultValue("10ms") Duration minBackoff,
        @DefaultValue("200ms") Duration maxBackoff,
        @DefaultValue Replication replication,
        @Nullable Store store,
        @DefaultValue Postgres postgres,
        @DefaultValue Mysql mysql) {

    /**
     * Grants and renewals acknowledged by replicas: a failover that promotes one of them keeps every grant the
     * lock reported. Costs one WAIT per grant and renewal; not on a Redis Cluster.
     *
     * @param replicas How many replicas must have a grant or renewal before it counts; 0 counts the master alone.
     *                 A grant they do not acknowledge in time is taken back and reported as Redis unavailable.
     * @param timeout  How long a grant or renewal waits for those replicas (within the command timeout).
     */
    public record Replication(@DefaultValue("0") int replicas, @DefaultValue("100ms") Duration timeout) {
    }

    /**
     * The PostgreSQL lock, on the application's own database (spring.datasource.*) through a small pool of its own, so
     * that a busy application pool cannot stall it and no migration waits for a connection the lock holds.
     *
     * @param table       The lease table, optionally schema-qualified; created with its schema and token sequence
     *                    when the application starts unless create-table is false.
     * @param callTimeout Longest wait for PostgreSQL (a connection from the lock's pool, the statement and its answer)
     *                    before LockUnavailableException.
     * @param poolSize    Connections of the lock's own pool: one per call under way, one for the release listener.
     * @param createTable Whether to create the lease table (and its schema and sequence) when the application starts,
     *                    before the migration gate. Off: run db/seatlock-lock/R__seatlock_lock_leases.sql yourself first.
     */
    public record Postgres(@DefaultValue("seatlock.leases") String table, @DefaultValue("2s") Duration callTimeout,
                           @DefaultValue("10") int poolSize, @DefaultValue("true") boolean createTable) {
    }

    /**
     * The MySQL/MariaDB lock, on the application's own database (spring.datasource.*) through a small pool of its own.
     *
     * @param table       The lease table, optionally database-qualified; created with its token table and trigger
     *                    when the application starts unless create-table is false.
     * @param callTimeout Longest wait for the database (a connection from the lock's pool, the statements and their
     *                    answers) before LockUnavailableException; a grant waits for a guarded write for whole
     *                    seconds within it, so keep it at 2s or more.
     * @param poolSize    Connections of the lock's own pool: one per call under way.
     * @param createTable Whether to create the lease table (and its token table and trigger) when the application
     *                    starts, before the migration gate. Off: run db/seatlock-lock/mysql/R__seatlock_lock_leases.sql
     *                    yourself first.
     */
    public record Mysql(@DefaultValue("seatlock_leases") String table, @DefaultValue("2s") Duration callTimeout,
                        @DefaultValue("10") int poolSize, @DefaultValue("true") boolean createTable) {
    }

    /** Where the lock keeps its leases. */
    public enum Store {
        /** Redis (seatlock-redis-lettuce or seatlock-redis-jedis): latency, and the on-sale crowd. */
        REDIS,
        /** PostgreSQL (seatlock-postgres): one server fewer, and writes fenced by the lease itself. */
        POSTGRES,
        /** MySQL or MariaDB (seatlock-mysql): one server fewer, and writes fenced by the lease itself. */
        MYSQL
    }

    /** The Redis clients the lock runs on. */
    public enum ClientType {
        /** Lettuce (io.lettuce:lettuce-core): one shared, pipelined connection. */
        LETTUCE,
        /** Jedis (io.seatlock:seatlock-redis-jedis): pooled connections, each call on the caller's thread. */
        JEDIS
    }

    /** Also the default timeouts of the application's own Spring Redis client ({@link SpringRedisClientTimeouts}). */
    static final String DEFAULT_COMMAND_TIMEOUT = "2s";

    /** A URL's login, as {@link #toString} shows it: {@code redis://user:secret@host} is {@code redis://(login)@host}. */
    private static final Pattern URL_LOGIN = Pattern.compile("(?<=://)[^/@]*@");

    /** Every setting, with the login of each URL and seed left out: a record's own {@code toString} would print it. */
    @Override
    public String toString() {
        return "SeatlockLockProperties[enabled=" + enabled + ", keyPrefix=" + keyPrefix + ", instanceId=" + instanceId
                + ", redisUrl=" + withoutLogin(redisUrl) + ", clusterNodes="
                + clusterNodes.stream().map(SeatlockLockProperties::withoutLogin).toList() + ", clusterRefresh="
                + clusterRefresh + ", clientType=" + clientType + ", connectTimeout=" + connectTimeout
                + ", commandTimeout=" + commandTimeout + ", clockDriftFactor=" + clockDriftFactor + ", minSafetyMargin="
                + minSafetyMargin + ", minBackoff=" + minBackoff + ", maxBackoff=" + maxBackoff + ", replication="
                + replication + ", store=" + store + ", postgres=" + postgres + ", mysql=" + mysql + "]";
    }

    private static @Nullable String withoutLogin(@Nullable String url) {
        return url == null ? null : URL_LOGIN.matcher(url).replaceFirst("(login)@");
    }

    /** The safety margin and back-off these settings give either store. */
    LeaseTiming timing() {
        return new LeaseTiming(clockDriftFactor, minSafetyMargin, minBackoff, maxBackoff);
    }

    /** The configured instance id, or this process's default one. */
    String instanceIdOrDefault() {
        return instanceId != null ? instanceId : InstanceId.ofThisProcess();
    }
}
