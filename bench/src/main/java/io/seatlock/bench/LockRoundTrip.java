package io.seatlock.bench;

import io.seatlock.lock.redis.RedisTimeouts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.RedisServer;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;

import io.seatlock.lock.redis.jedis.JedisTransport;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.SetParams;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

/** Acquire + release of an uncontended lock (each thread has its own keys), per library. */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LockRoundTrip {

    public enum Impl { RAW_LETTUCE, RAW_JEDIS, RAW_JEDIS_POOLED, SHARED_LOCK, SHARED_LOCK_OBSERVED, SHARED_LOCK_METERED, SHARED_LOCK_JEDIS, SHEDLOCK, SHEDLOCK_SAFE, REDISSON_RLOCK, REDISSON_FENCED, SPRING_INTEGRATION }

    /** One acquire+release; false if either step did not do what it should. */
    interface Locker extends AutoCloseable {
        boolean acquireRelease(String key) throws Exception;
    }

    @Param({"RAW_LETTUCE", "RAW_JEDIS", "RAW_JEDIS_POOLED", "SHARED_LOCK", "SHARED_LOCK_OBSERVED", "SHARED_LOCK_METERED", "SHARED_LOCK_JEDIS", "SHEDLOCK", "SHEDLOCK_SAFE", "REDISSON_RLOCK", "REDISSON_FENCED",
            "SPRING_INTEGRATION"})
    public Impl impl;

    /** The raw floors' release: compare-and-delete of a constant token. */
    private static final String RAW_RELEASE =
            "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
    /** Every contender's lease, made once as the raw floors make their SET arguments once. */
    private static final Duration LEASE = Duration.ofSeconds(10);

    /** Acquires an uncontended lock should never refuse; counted and printed, so a library that does shows. */
    static final AtomicLong REFUSED = new AtomicLong();

    private Locker locker;

    @State(Scope.Thread)
    public static class Keys {
        private static final AtomicInteger THREADS = new AtomicInteger();
        private final String prefix = "bench:" + THREADS.incrementAndGet() + ":";
        private int n;

        String next() {
            n = (n + 1) % 1000;
            return prefix + n;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        locker = create(impl, LocalServers.redis());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        if (REFUSED.get() > 0) {
            System.out.println("REFUSED " + impl + ": " + REFUSED.get() + " uncontended acquires refused");
        }
        locker.close();
        RedisServer redis = LocalServers.redis();
        for (String prefix : new String[] {"bench:", "bench-sl:", "bench-r:", "bench-rf:", "bench-si:", "job-lock:bench:",
                "redisson_lock_token:{bench-rf:"}) {
            redis.deleteKeys(prefix);
        }
    }

    /**
     * The pairs that did what they should (acquired, then released), per second beside JMH's count of calls: a
     * library that refuses an uncontended acquire returns at once, and its calls alone would flatter it.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Pairs {
        public long completed;

        @Setup(Level.Iteration)
        public void reset() {
            completed = 0;
        }
    }

    @Benchmark
    public boolean acquireRelease(Keys keys, Pairs pairs) throws Exception {
        boolean completed = locker.acquireRelease(keys.next());
        if (completed) {
            pairs.completed++;
        }
        return completed;
    }

    private static LettuceConnectionFactory springRedis(RedisServer redis) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(redis.host(), redis.port()));
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** Releases what was acquired; an uncontended acquire that was refused is counted, never unlocked. */
    private static boolean unlockIfAcquired(boolean acquired, Lock lock) {
        if (acquired) {
            lock.unlock();
        } else {
            REFUSED.incrementAndGet();
        }
        return acquired;
    }

    /** The metrics, observation and lock auto-configurations alone, for {@link Impl#SHARED_LOCK_METERED}. */
    @org.springframework.boot.autoconfigure.ImportAutoConfiguration({
            org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration.class,
            org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration.class,
            org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration.class,
            org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration.class,
            io.seatlock.lock.autoconfigure.SeatlockMetricsAutoConfiguration.class,
            io.seatlock.lock.autoconfigure.SeatlockLockAutoConfiguration.class,
            io.seatlock.lock.autoconfigure.SeatlockObservationAutoConfiguration.class})
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    static class MeteredApp {
    }

    /** seatlock's pair: a lease taken and released, on whichever lock; {@code close} ends what the lock runs on. */
    private static Locker seatlock(io.seatlock.lock.DistributedLock lock, Runnable close) {
        return new Locker() {
            public boolean acquireRelease(String key) {
                return lock.tryAcquire(key, LEASE, OverlapImpact.WASTED_WORK)
                        .map(l -> l.release() == ReleaseOutcome.RELEASED).orElse(false);
            }

            public void close() {
                close.run();
            }
        };
    }

    static Locker create(Impl impl, RedisServer redis) {
        String url = "redis://" + redis.host() + ":" + redis.port();
        switch (impl) {
            case RAW_LETTUCE: {
                RedisClient client = RedisClient.create(url);
                StatefulRedisConnection<String, String> c = client.connect();
                RedisCommands<String, String> r = c.sync();
                String sha = r.scriptLoad(RAW_RELEASE);
                SetArgs nxPx = SetArgs.Builder.nx().px(10_000);
                return new Locker() {
                    public boolean acquireRelease(String key) {
                        boolean acquired = "OK".equals(r.set(key, "tok", nxPx));
                        Long released = r.evalsha(sha, ScriptOutputType.INTEGER, new String[] {key}, "tok");
                        return acquired && released == 1L;
                    }

                    public void close() {
                        c.close();
                        RedisServer.shutDown(client);
                    }
                };
            }
            case RAW_JEDIS: {
                // A connection per thread, as a Jedis user would have (Jedis connections are not thread-safe).
                List<Jedis> all = new CopyOnWriteArrayList<>();
                ThreadLocal<Jedis> mine = ThreadLocal.withInitial(() -> {
                    Jedis jedis = new Jedis(redis.host(), redis.port());
                    all.add(jedis);
                    return jedis;
                });
                String sha = mine.get().scriptLoad(RAW_RELEASE);
                SetParams nxPx = SetParams.setParams().nx().px(10_000);
                return new Locker() {
                    public boolean acquireRelease(String key) {
                        Jedis r = mine.get();
                        boolean acquired = "OK".equals(r.set(key, "tok", nxPx));
                        Object released = r.evalsha(sha, List.of(key), List.of("tok"));
                        return acquired && Long.valueOf(1L).equals(released);
                    }

                    public void close() {
                        all.forEach(Jedis::close);
                    }
                };
            }
            case RAW_JEDIS_POOLED: {
                // Jedis' own thread-safe client: each command borrows a pooled connection, as seatlock's transport
                // does, from a pool as large as the transport's.
                GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
                pool.setMaxTotal(64);
                pool.setMaxIdle(64);
                pool.setJmxEnabled(false);
                JedisPooled jedis = new JedisPooled(new HostAndPort(redis.host(), redis.port()),
                        DefaultJedisClientConfig.builder().build(), pool);
                String sha = jedis.scriptLoad(RAW_RELEASE);
                SetParams nxPx = SetParams.setParams().nx().px(10_000);
                return new Locker() {
                    public boolean acquireRelease(String key) {
                        boolean acquired = "OK".equals(jedis.set(key, "tok", nxPx));
                        Object released = jedis.evalsha(sha, List.of(key), List.of("tok"));
                        return acquired && Long.valueOf(1L).equals(released);
                    }

                    public void close() {
                        jedis.close();
                    }
                };
            }
            case SHARED_LOCK:
            case SHARED_LOCK_OBSERVED:
            case SHARED_LOCK_JEDIS: {
                RedisLockSettings settings = RedisLockSettings.defaults().withKeyPrefix("bench-sl:");
                // observed as the starter does when the app has an ObservationRegistry, here one with no handler
                io.seatlock.lock.micrometer.LockObservations observations = new io.seatlock.lock.micrometer.LockObservations(
                        io.micrometer.observation.ObservationRegistry.create());
                RedisLockClient client = impl != Impl.SHARED_LOCK_JEDIS
                        ? RedisLockClient.over(
                                LettuceTransport.standalone(io.lettuce.core.RedisURI.create(url), RedisTimeouts.of(Duration.ofSeconds(2))),
                                settings,
                                impl == Impl.SHARED_LOCK_OBSERVED ? observations.listener() : LockListener.NOOP)
                        : RedisLockClient.over(JedisTransport.standalone(new HostAndPort(redis.host(), redis.port()),
                                DefaultJedisClientConfig.builder().build(), RedisTimeouts.of(Duration.ofSeconds(2))), settings, LockListener.NOOP);
                return seatlock(impl == Impl.SHARED_LOCK_OBSERVED ? observations.wrap(client) : client, client::close);
            }
            case SHARED_LOCK_METERED: {
                // The lock as the starter gives it to an application with Actuator and a Prometheus registry: the
                // store's meters registered at zero, observations timed by the registry, the observed lock as @Primary.
                org.springframework.context.ConfigurableApplicationContext app =
                        new org.springframework.boot.builder.SpringApplicationBuilder(MeteredApp.class)
                                .web(org.springframework.boot.WebApplicationType.NONE)
                                .run("--seatlock.lock.redis-url=" + url, "--seatlock.lock.key-prefix=bench-slm:",
                                        "--spring.main.banner-mode=off", "--logging.level.root=WARN");
                app.getBean(io.micrometer.prometheusmetrics.PrometheusMeterRegistry.class); // there, or this fails
                return seatlock(app.getBean(io.seatlock.lock.DistributedLock.class), app::close);
            }
            case SHEDLOCK:
            case SHEDLOCK_SAFE: {
                LettuceConnectionFactory factory = springRedis(redis);
                RedisLockProvider provider = new RedisLockProvider.Builder(factory).environment("bench")
                        .safeUpdate(impl == Impl.SHEDLOCK_SAFE).build();
                return new Locker() {
                    public boolean acquireRelease(String key) {
                        return provider.lock(new LockConfiguration(ClockProvider.now(), key, LEASE,
                                Duration.ZERO)).map(l -> {
                            l.unlock();
                            return true;
                        }).orElse(false);
                    }

                    public void close() {
                        factory.destroy();
                    }
                };
            }
            case REDISSON_RLOCK:
            case REDISSON_FENCED: {
                Config config = new Config();
                config.useSingleServer().setAddress(url);
                RedissonClient redisson = Redisson.create(config);
                boolean fenced = impl == Impl.REDISSON_FENCED;
                return new Locker() {
                    public boolean acquireRelease(String key) throws InterruptedException {
                        if (fenced) {
                            RFencedLock lock = redisson.getFencedLock("bench-rf:" + key);
                            Long token = lock.tryLockAndGetToken(0, 10, TimeUnit.SECONDS);
                            if (token == null) {
                                REFUSED.incrementAndGet();
                                return false;
                            }
                            lock.unlock();
                            return true;
                        }
                        RLock lock = redisson.getLock("bench-r:" + key);
                        return unlockIfAcquired(lock.tryLock(0, 10, TimeUnit.SECONDS), lock);
                    }

                    public void close() {
                        redisson.shutdown();
                    }
                };
            }
            case SPRING_INTEGRATION: {
                LettuceConnectionFactory factory = springRedis(redis);
                RedisLockRegistry registry = new RedisLockRegistry(factory, "bench-si", 10_000);
                return new Locker() {
                    public boolean acquireRelease(String key) {
                        Lock lock = registry.obtain(key);
                        return unlockIfAcquired(lock.tryLock(), lock);
                    }

                    public void close() {
                        registry.destroy();
                        factory.destroy();
                    }
                };
            }
            default:
                throw new IllegalArgumentException(impl.name());
        }
    }
}
