package io.seatlock.seats;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.seatlock.localservers.IsolatedServers;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-11 items 3 to 5: the e-mail relay under SMTP and database faults. It never holds a transaction or a
 * row lock while it waits on SMTP, and one lost database connection resends at most the one row whose mark
 * it lost.
 */
class OutboxRelayFaultTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OutboxRelayFaultTest");
    private final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private final JdbcTemplate db = new JdbcTemplate(servers.dataSource());
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void start() {
        mail.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
        mail.stop();
    }

    private SeatsReplica replica(String name, int smtpPort, JavaMailSender sender, Map<String, String> extra) {
        SeatsReplica replica = SeatsReplica.startWith(name, servers, smtpPort,
                sender == null ? null : c -> c.registerBean(JavaMailSender.class, () -> sender), extra);
        cleanup.add(replica);
        return replica;
    }

    private Map<String, Long> receivedPerKey() {
        return Arrays.stream(mail.getReceivedMessages()).collect(Collectors.groupingBy(m -> {
            try {
                return m.getHeader("Idempotency-Key")[0];
            } catch (MessagingException e) {
                throw new IllegalStateException(e);
            }
        }, Collectors.counting()));
    }

    @Test
    void aSilentSmtpServerHoldsNoTransactionOrRowLockAndAnotherReplicaDeliversEverything() throws Exception {
        ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        List<Socket> held = new ArrayList<>();
        cleanup.add(silent);
        Thread acceptor = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    held.add(silent.accept()); // accepts, never answers a byte
                } catch (IOException e) {
                    return;
                }
            }
        }, "silent-smtp");
        acceptor.setDaemon(true);
        acceptor.start();
        SeatsReplica quiet = replica("quiet", silent.getLocalPort(), null, Map.of("seats.relay.interval", "100ms",
                "seats.relay.claim-lease", "3s", "seats.relay.max-backoff", "1s",
                "spring.mail.properties[mail.smtp.connectiontimeout]", "1500",
                "spring.mail.properties[mail.smtp.timeout]", "1500", "spring.mail.properties[mail.smtp.writetimeout]", "1500"));
        for (String seat : List.of("1B", "2B", "3B")) {
            assertThat(quiet.book("concert", seat, "fan" + seat + "@example.com", "Fan").statusCode()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> !held.isEmpty()); // its relay now waits on SMTP
        assertThat(db.queryForObject("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                AND state LIKE 'idle in transaction%'""", Long.class)).as("no transaction open across SMTP").isZero();
        assertThat(db.queryForObject("""
                SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                WHERE c.relname = 'email_outbox' AND l.mode = 'RowShareLock' AND l.pid <> pg_backend_pid()""", Long.class))
                .as("no row of the outbox locked across SMTP").isZero();

        replica("healthy", mail.getSmtp().getPort(), null, Map.of("seats.relay.interval", "100ms"));
        await().atMost(Duration.ofSeconds(90)).until(() -> receivedPerKey().size() == 3);
        assertThat(receivedPerKey().values()).containsOnly(1L);
        assertThat(db.queryForObject("SELECT count(*) FROM email_outbox WHERE status = 'SENT' AND recipient LIKE 'fan_B@%'",
                Long.class)).isEqualTo(3);
        for (Socket s : held) {
            s.close();
        }
    }

    @Test
    void aDatabaseBlipMidBatchResendsAtMostTheOneRowWhoseMarkItLost() {
        SeatsReplica booker = replica("booker", 1, null, Map.of("seats.relay.interval", "1h"));
        List<String> seats = List.of("1C", "2C", "3C", "4C", "5C");
        for (String seat : seats) {
            assertThat(booker.book("concert", seat, "fan" + seat + "@example.com", "Fan").statusCode()).isEqualTo(201);
        }
        AtomicInteger sends = new AtomicInteger();
        JavaMailSenderImpl blipAfterThird = new JavaMailSenderImpl() {
            @Override
            protected void doSend(MimeMessage[] messages, Object[] originals) {
                super.doSend(messages, originals);
                if (sends.incrementAndGet() == 3) { // the SMTP reply came back; now the database connections drop
                    db.queryForList("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            + "WHERE datname = current_database() AND pid <> pg_backend_pid()");
                }
            }
        };
        blipAfterThird.setHost("127.0.0.1");
        blipAfterThird.setPort(mail.getSmtp().getPort());
        replica("relay", mail.getSmtp().getPort(), blipAfterThird, Map.of("seats.relay.interval", "100ms",
                "seats.relay.claim-lease", "2s"));

        // The blip ends every other connection to this database, the test's own pooled ones included: a
        // check that lands on one of those is asked again.
        await().atMost(Duration.ofSeconds(60)).ignoreExceptionsInstanceOf(DataAccessResourceFailureException.class)
                .until(() -> db.queryForObject(
                        "SELECT count(*) FROM email_outbox WHERE status = 'SENT' AND recipient LIKE 'fan_C@%'", Long.class)
                        == seats.size());
        await().atMost(Duration.ofSeconds(10)).until(() -> receivedPerKey().size() == seats.size());
        Map<String, Long> perKey = receivedPerKey();
        assertThat(perKey.values()).allSatisfy(n -> assertThat(n).isBetween(1L, 2L));
        assertThat(mail.getReceivedMessages().length).as("at most one resend for the one blip")
                .isLessThanOrEqualTo(seats.size() + 1);
        assertThat(sends.get()).isGreaterThanOrEqualTo(3);
    }
}
