package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.OwnedRedis;
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

import java.io.IOException;
import java.nio.file.Files;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

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

    @TempDir
    static Path dir;
    private static OwnedRedis redis;
    private static int tlsPort;

    /**
     * Certificates from the JDK's own keytool (a CA, and a server certificate for IP 127.0.0.1 signed by it),
     * and a TLS-only server from the embedded Redis binary the build already has: nothing to install.
     */
    @BeforeAll
    static void startTlsOnlyRedis() throws Exception {
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=seatlock-test-ca",
                "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12");
        keytool("-exportcert", "-alias", "ca", "-rfc", "-file", "ca.pem", "-keystore", "ca.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-validity", "2", "-keystore", "server.p12");
        keytool("-certreq", "-alias", "server", "-file", "server.csr", "-keystore", "server.p12");
        keytool("-gencert", "-alias", "ca", "-infile", "server.csr", "-outfile", "server.pem", "-rfc",
                "-ext", "SAN=IP:127.0.0.1", "-validity", "2", "-keystore", "ca.p12");
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(dir.resolve("server.p12"))) {
            server.load(in, STORE_PASSWORD.toCharArray());
        }
        byte[] key = server.getKey("server", STORE_PASSWORD.toCharArray()).getEncoded(); // PKCS#8
        Files.writeString(dir.resolve("server.key"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key) + "\n-----END PRIVATE KEY-----\n");

        // The lock is pointed at the TLS port only; a client speaking plain text there gets nowhere.
        redis = new OwnedRedis("tls-port ${tls-port}",
                "tls-cert-file " + dir.resolve("server.pem"), "tls-key-file " + dir.resolve("server.key"),
                "tls-ca-cert-file " + dir.resolve("ca.pem"), "tls-auth-clients no",
                "user default off", "user seatlock on >" + PASSWORD + " ~* +@all");
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

    private static final String STORE_PASSWORD = "test-only";

    private static void keytool(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", STORE_PASSWORD, "-noprompt"));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
    }

    private ApplicationContextRunner app(String... properties) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
                        SeatlockLockAutoConfiguration.class))
                .withPropertyValues("seatlock.lock.key-prefix=tls-test:",
                        "spring.ssl.bundle.pem.test-ca.truststore.certificate=file:" + dir.resolve("ca.pem"))
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

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"lettuce", "jedis"})
    void aRedissUrlAloneUsesTlsWithTheJvmsTrustAndSendsNoCredentialInPlainText(String client) throws Exception {
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", tlsPort)) {
            app("seatlock.lock.client-type=" + client, "spring.data.redis.url=rediss://seatlock:" + PASSWORD + "@127.0.0.1:" + proxy.port(),
                    "seatlock.lock.command-timeout=2s").run(context -> {
                        RedisLockClient lock = context.getBean(RedisLockClient.class);
                        // our test CA is not in the JVM's trust store: the TLS handshake fails, nothing else is sent
                        assertThatThrownBy(lock::ping).isInstanceOf(LockUnavailableException.class);
                    });
            String wire = proxy.sentByClients();
            assertThat(wire).as("a TLS client hello was sent").isNotEmpty();
            assertThat(wire).doesNotContain(PASSWORD).doesNotContain("HELLO");
        }
    }
}
