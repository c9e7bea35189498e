package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.FaultProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * GH-10 item 8: against a TLS-only {@code redis-server} (Debian's, with certificates made here), the lock
 * follows Spring Boot's Redis settings: a {@code rediss://} URL and an SSL bundle. A recording proxy in front
 * of the server shows that no credential ever crosses the wire in plain text.
 */
class RedisTlsTest {

    private static final String PASSWORD = "s3cret-tls-only";

    @TempDir
    static Path dir;
    private static Process redis;
    private static int tlsPort;

    @BeforeAll
    static void startTlsOnlyRedis() throws Exception {
        run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=seatlock-test-ca",
                "-keyout", dir.resolve("ca.key").toString(), "-out", dir.resolve("ca.pem").toString());
        run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                "-keyout", dir.resolve("server.key").toString(), "-out", dir.resolve("server.csr").toString());
        java.nio.file.Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1\n");
        run("openssl", "x509", "-req", "-in", dir.resolve("server.csr").toString(), "-CA", dir.resolve("ca.pem").toString(),
                "-CAkey", dir.resolve("ca.key").toString(), "-CAcreateserial", "-days", "1",
                "-extfile", dir.resolve("san.ext").toString(), "-out", dir.resolve("server.pem").toString());
        try (ServerSocket s = new ServerSocket(0)) {
            tlsPort = s.getLocalPort();
        }
        redis = new ProcessBuilder("redis-server", "--port", "0", "--tls-port", Integer.toString(tlsPort),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--tls-cert-file", dir.resolve("server.pem").toString(),
                "--tls-key-file", dir.resolve("server.key").toString(),
                "--tls-ca-cert-file", dir.resolve("ca.pem").toString(), "--tls-auth-clients", "no",
                "--user", "default", "off",
                "--user", "seatlock", "on", ">" + PASSWORD, "~*", "+@all")
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
            try (Socket ignored = new Socket("127.0.0.1", tlsPort)) {
                return true;
            }
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (redis != null) {
            redis.destroy();
            redis.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
    }

    private ApplicationContextRunner app(String... properties) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
                        SharedLockAutoConfiguration.class))
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
                String owner = context.getBean(StringRedisTemplate.class).opsForValue().get("tls-test:lock:{tls:job}");
                assertThat(owner).as("the app's own Redis client sees the lock's key").isEqualTo(lease.ownerToken());
            }
            assertThat(((RedisLockClient) lock).ping()).isPositive();
        });
        String wire = proxy.sentByClients();
        assertThat(wire).as("bytes crossed the proxy").isNotEmpty();
        assertThat(wire).as("no credential in plain text").doesNotContain(PASSWORD).doesNotContain("seatlock")
                .doesNotContain("HELLO").doesNotContain("AUTH");
    }

    @Test
    void aRedissUrlWithAnSslBundleForTrustIsHonouredByTheLock() throws Exception {
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", tlsPort)) {
            assertLockAndSpringShareTheTlsServer(app(
                    "spring.data.redis.url=rediss://seatlock:" + PASSWORD + "@127.0.0.1:" + proxy.port(),
                    "spring.data.redis.ssl.bundle=test-ca"), proxy);
        }
    }

    @Test
    void hostPortAndAnSslBundleAreHonouredByTheLock() throws Exception {
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", tlsPort)) {
            assertLockAndSpringShareTheTlsServer(app("spring.data.redis.host=127.0.0.1",
                    "spring.data.redis.port=" + proxy.port(), "spring.data.redis.username=seatlock",
                    "spring.data.redis.password=" + PASSWORD, "spring.data.redis.ssl.bundle=test-ca"), proxy);
        }
    }

    @Test
    void aRedissUrlAloneUsesTlsWithTheJvmsTrustAndSendsNoCredentialInPlainText() throws Exception {
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", tlsPort)) {
            app("spring.data.redis.url=rediss://seatlock:" + PASSWORD + "@127.0.0.1:" + proxy.port(),
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
