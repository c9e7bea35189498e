package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.OwnedRedis;
import io.seatlock.localservers.OwnedSentinel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.ArrayList;
import java.util.List;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * GH-10 item 8: against a TLS-only Redis (the embedded binary, with certificates made here), the lock
 * follows Spring Boot's Redis settings: a {@code rediss://} URL and an SSL bundle. A recording proxy in front
 * of the server shows that no credential ever crosses the wire in plain text.
 */
class RedisTlsTest {

    private static final String PASSWORD = "s3cret-tls-only";
    private static final String SENTINEL_PASSWORD = "s3cret-sentinel";
    private static final String SENTINEL_MASTER = "tls-master";

    @TempDir
    static Path dir;
    private static OwnedRedis redis;
    private static int tlsPort;
    private static TestCertificates certificates;

    /** A TLS-only server from the embedded Redis binary the build already has, with certificates made here. */
    @BeforeAll
    static void startTlsOnlyRedis() throws Exception {
        certificates = TestCertificates.in(dir);
        // The lock is pointed at the TLS port only; a client speaking plain text there gets nowhere.
        List<String> settings = new ArrayList<>(certificates.redisSettings());
        settings.addAll(List.of("user default off", "user seatlock on >" + PASSWORD + " ~* +@all"));
        redis = new OwnedRedis(settings.toArray(String[]::new));
        tlsPort = redis.tlsPort();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
            try (Socket ignored = new Socket("127.0.0.1", tlsPort)) {
                return true;
            }
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (redis != null) {
            redis.close();
        }
    }

    private ApplicationContextRunner app(String... properties) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
                        SeatlockLockAutoConfiguration.class))
                .withPropertyValues("seatlock.lock.key-prefix=tls-test:",
                        "spring.ssl.bundle.pem.test-ca.truststore.certificate=file:" + certificates.caCertificate())
                .withPropertyValues(properties);
    }

    private void assertLockAndSpringShareTheTlsServer(ApplicationContextRunner runner, FaultProxy proxy) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            DistributedLock lock = context.getBean(DistributedLock.class);
            try (LockLease lease = lock.tryAcquire("tls:job", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                    .orElseThrow()) {
                String owner = context.getBean(StringRedisTemplate.class).opsForValue().get(new RedisKeys("tls-test:").lock("tls:job"));
                assertThat(owner).as("the app's own Redis client sees the lock's key").isEqualTo(lease.ownerToken());
            }
            assertThat(((RedisLockClient) lock).ping()).isPositive();
            assertThat(((RedisLockClient) lock).client()).isEqualTo(context.getEnvironment().getProperty("seatlock.lock.client-type"));
        });
        String wire = proxy.sentByClients();
        assertThat(wire).as("bytes crossed the proxy").isNotEmpty();
        assertThat(wire).as("no credential in plain text").doesNotContain(PASSWORD).doesNotContain("seatlock")
                .doesNotContain("HELLO").doesNotContain("AUTH");
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"lettuce", "jedis"})
    void aRedissUrlWithAnSslBundleForTrustIsHonouredByTheLock(String client) throws Exception {
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", tlsPort)) {
            assertLockAndSpringShareTheTlsServer(app("seatlock.lock.client-type=" + client,
                    "spring.data.redis.url=rediss://seatlock:" + PASSWORD + "@127.0.0.1:" + proxy.port(),
                    "spring.data.redis.ssl.bundle=test-ca"), proxy);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"lettuce", "jedis"})
    void hostPortAndAnSslBundleAreHonouredByTheLock(String client) throws Exception {
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", tlsPort)) {
            assertLockAndSpringShareTheTlsServer(app("seatlock.lock.client-type=" + client, "spring.data.redis.host=127.0.0.1",
                    "spring.data.redis.port=" + proxy.port(), "spring.data.redis.username=seatlock",
                    "spring.data.redis.password=" + PASSWORD, "spring.data.redis.ssl.bundle=test-ca"), proxy);
        }
    }

    /**
     * Spring's Sentinel settings, the Sentinel asking a password of its own and serving TLS: the lock reaches the
     * Sentinel as Spring's own client does (its credentials, TLS with the bundle), then the master it names.
     */
    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"lettuce", "jedis"})
    void aSentinelsOwnPasswordAndTlsAreHonouredByTheLock(String client) throws Exception {
        try (OwnedSentinel sentinel = tlsSentinel("requirepass " + SENTINEL_PASSWORD,
                "sentinel auth-user " + SENTINEL_MASTER + " seatlock", "sentinel auth-pass " + SENTINEL_MASTER + " " + PASSWORD);
             FaultProxy proxy = new FaultProxy("127.0.0.1", sentinel.tlsPort())) {
            assertLockAndSpringShareTheTlsServer(app("seatlock.lock.client-type=" + client,
                    "spring.data.redis.sentinel.master=" + SENTINEL_MASTER,
                    "spring.data.redis.sentinel.nodes=127.0.0.1:" + proxy.port(),
                    "spring.data.redis.sentinel.password=" + SENTINEL_PASSWORD, "spring.data.redis.username=seatlock",
                    "spring.data.redis.password=" + PASSWORD, "spring.data.redis.ssl.bundle=test-ca"), proxy);
            assertThat(proxy.sentByClients()).as("the Sentinel's password not in plain text").doesNotContain(SENTINEL_PASSWORD);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"lettuce", "jedis"})
    void aRedissSentinelUrlUsesTlsToTheSentinelAndSendsNoCredentialInPlainText(String client) throws Exception {
        try (OwnedSentinel sentinel = tlsSentinel();
             FaultProxy proxy = new FaultProxy("127.0.0.1", sentinel.tlsPort())) {
            String wire = refusedWithTheJvmsTrust(proxy, "seatlock.lock.client-type=" + client,
                    "seatlock.lock.redis-url=rediss-sentinel://seatlock:" + PASSWORD + "@127.0.0.1:" + proxy.port() + "#"
                            + SENTINEL_MASTER);
            assertThat(wire).doesNotContain(PASSWORD).doesNotContain("SENTINEL").doesNotContain(SENTINEL_MASTER);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"lettuce", "jedis"})
    void aRedissUrlAloneUsesTlsWithTheJvmsTrustAndSendsNoCredentialInPlainText(String client) throws Exception {
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", tlsPort)) {
            String wire = refusedWithTheJvmsTrust(proxy, "seatlock.lock.client-type=" + client,
                    "spring.data.redis.url=rediss://seatlock:" + PASSWORD + "@127.0.0.1:" + proxy.port());
            assertThat(wire).doesNotContain(PASSWORD).doesNotContain("HELLO");
        }
    }

    /** A Sentinel serving TLS only on its TLS port, watching the TLS master over TLS, with these settings besides. */
    private static OwnedSentinel tlsSentinel(String... settings) throws Exception {
        List<String> lines = new ArrayList<>(certificates.redisSettings());
        lines.add("tls-replication yes");
        lines.addAll(List.of(settings));
        return new OwnedSentinel(SENTINEL_MASTER, tlsPort, lines.toArray(String[]::new));
    }

    /**
     * Runs the app with {@code properties} against {@code proxy}: our test CA is not in the JVM's trust store, so the
     * lock's TLS handshake fails and its ping is refused. Returns what the lock sent, a TLS client hello at least.
     */
    private String refusedWithTheJvmsTrust(FaultProxy proxy, String... properties) {
        app(properties).withPropertyValues("seatlock.lock.command-timeout=2s").run(context -> {
            RedisLockClient lock = context.getBean(RedisLockClient.class);
            assertThatThrownBy(lock::ping).isInstanceOf(LockUnavailableException.class);
        });
        String wire = proxy.sentByClients();
        assertThat(wire).as("a TLS client hello was sent").isNotEmpty();
        return wire;
    }
}
