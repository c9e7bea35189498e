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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
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
        SilentSmtp silent = silentSmtp();
        SeatsReplica quiet = replica("quiet", silent.port(), null, Map.of("seats.relay.interval", "100ms",
                "seats.relay.claim-lease", "3s", "seats.relay.max-backoff", "1s",
                "spring.mail.properties[mail.smtp.connectiontimeout]", "1500",
                "spring.mail.properties[mail.smtp.timeout]", "1500", "spring.mail.properties[mail.smtp.writetimeout]", "1500"));
        for (String seat : List.of("1B", "2B", "3B")) {
            assertThat(quiet.book("concert", seat, "fan" + seat + "@example.com", "Fan").statusCode()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> !silent.held().isEmpty()); // its relay now waits on SMTP
        assertThat(db.queryForObject("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                AND state LIKE 'idle in transaction%'""", Long.class)).as("no transaction open across SMTP").isZero();
        assertThat(db.queryForObject("""
                SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                WHERE c.relname = 'email_outbox' AND l.mode = 'RowShareLock' AND l.pid <> pg_backend_pid()""", Long.class))
                .as("no row of the outbox locked across SMTP").isZero();

        // The quiet replica's pause (its max-backoff caps it at 1 s) still outlasts the 1 s back-off it gives a row,
        // so the healthy one gets each row as it comes due instead of racing the quiet one's next round for it.
        replica("healthy", mail.getSmtp().getPort(), null, Map.of("seats.relay.interval", "100ms"));
        await().atMost(Duration.ofSeconds(30)).until(() -> receivedPerKey().size() == 3);
        assertThat(receivedPerKey().values()).containsOnly(1L);
        // marked SENT after the server took the mail: the last mark may still be on its way
        await().atMost(Duration.ofSeconds(30)).until(() -> db.queryForObject(
                "SELECT count(*) FROM email_outbox WHERE status = 'SENT' AND recipient LIKE 'fan_B@%'", Long.class) == 3);
    }

    /** An SMTP port that accepts connections and never sends a byte; the sockets it holds. */
    private record SilentSmtp(int port, List<Socket> held) {
    }

    /** Accepts and holds connections until the test ends, then closes them. */
    private SilentSmtp silentSmtp() throws IOException {
        ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        List<Socket> held = new CopyOnWriteArrayList<>();
        cleanup.add(silent);
        cleanup.add(() -> {
            for (Socket s : held) {
                s.close();
            }
        });
        Thread acceptor = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    held.add(silent.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "silent-smtp");
        acceptor.setDaemon(true);
        acceptor.start();
        return new SilentSmtp(silent.getLocalPort(), held);
    }

    /**
     * GH-21 item 12: replica C's SMTP accepts and never greets, D's works. C must not keep winning the rows it
     * failed (they used to come due exactly on C's relay rhythm): D delivers every row within seconds.
     */
    @Test
    void aReplicaWithASilentSmtpStopsClaimingSoAHealthyOneDeliversEveryRowWithinSeconds() throws Exception {
        SilentSmtp silent = silentSmtp();
        SeatsReplica c = replica("smtp-broken", silent.port(), null, Map.of("seats.relay.interval", "500ms",
                "spring.mail.properties[mail.smtp.connectiontimeout]", "1500",
                "spring.mail.properties[mail.smtp.timeout]", "1500", "spring.mail.properties[mail.smtp.writetimeout]", "1500"));
        List<String> seats = List.of("1D", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "11D", "12D");
        for (String seat : seats) {
            assertThat(c.book("concert", seat, "fan" + seat + "@example.com", "Fan").statusCode()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> db.queryForObject(
                "SELECT count(*) FROM email_outbox WHERE last_error IS NOT NULL", Long.class) > 0); // C has failed a send

        long healthyStarted = System.nanoTime();
        replica("smtp-healthy", mail.getSmtp().getPort(), null, Map.of("seats.relay.interval", "500ms"));
        await().atMost(Duration.ofSeconds(60)).until(() -> receivedPerKey().size() == seats.size());
        Duration allDelivered = Duration.ofNanos(System.nanoTime() - healthyStarted);

        // D's own start-up is part of this on a busy machine; rows stuck with C took minutes (back-off 2, 4, 8 ... s).
        assertThat(allDelivered).as("every confirmation out after the healthy replica started").isLessThan(Duration.ofSeconds(20));
        assertThat(receivedPerKey().values()).containsOnly(1L);
        // the relay marks a row SENT after the server took its mail: the last row's mark may still be on its way
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(db.queryForList(
                "SELECT attempts FROM email_outbox WHERE status = 'SENT' AND recipient LIKE 'fan%D@%'", Integer.class))
                .hasSize(seats.size()).allSatisfy(attempts -> assertThat(attempts).isLessThanOrEqualTo(3)));
    }

    /**
     * A recipient the SMTP server refuses (550 no such mailbox, or 450 busy) is that row's failure, not the replica's SMTP's: the
     * relay goes on with the next rows at once. It took the refusal for a broken SMTP and stopped claiming for its
     * failure pause, each time the row came due again (with the row's back-off grown to ten minutes, a pause of ten
     * minutes more for every confirmation behind it).
     */
    @Test
    void aRecipientTheServerRefusesHoldsUpNoOtherConfirmation() throws Exception {
        RefusingSmtp smtp = refusingSmtp();
        SeatsReplica relay = replica("refused", smtp.port(), null, Map.of("seats.relay.interval", "100ms",
                "seats.relay.failure-pause", "1h", "seats.relay.max-backoff", "2h"));
        assertThat(relay.book("concert", "1F", "refused@example.com", "Ray").statusCode()).isEqualTo(201);
        assertThat(relay.book("concert", "5F", "refused-for-now@example.com", "Bea").statusCode()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> db.queryForObject(
                "SELECT count(*) FROM email_outbox WHERE recipient LIKE 'refused%' AND attempts > 0", Long.class) == 2);
        for (String seat : List.of("2F", "3F", "4F")) {
            assertThat(relay.book("concert", seat, "fan" + seat + "@example.com", "Fan").statusCode()).isEqualTo(201);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> smtp.delivered().size() == 3);
        assertThat(smtp.delivered()).containsExactlyInAnyOrder("<fan2F@example.com>", "<fan3F@example.com>",
                "<fan4F@example.com>");
        await().atMost(Duration.ofSeconds(30)).until(() -> db.queryForObject(
                "SELECT count(*) FROM email_outbox WHERE status = 'SENT' AND recipient LIKE 'fan_F@%'", Long.class) == 3);
        assertThat(db.queryForMap("SELECT status, last_error FROM email_outbox WHERE recipient = 'refused@example.com'"))
                .containsEntry("status", "PENDING").hasEntrySatisfying("last_error", error ->
                        assertThat((String) error).contains("550"));
        assertThat(db.queryForMap("SELECT status, last_error FROM email_outbox WHERE recipient = 'refused-for-now@example.com'"))
                .containsEntry("status", "PENDING").hasEntrySatisfying("last_error", error ->
                        assertThat((String) error).contains("450"));
        assertThat(relay.counter("seats.outbox.paused")).as("the replica did not stop claiming").isZero();
    }

    /**
     * An SMTP server that refuses each recipient whose address starts with "refused" (for good, 550) or "refused-for-now"
     * (for a while, 450), and takes the others.
     */
    private record RefusingSmtp(int port, List<String> delivered) {
    }

    private RefusingSmtp refusingSmtp() throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        cleanup.add(server);
        List<String> delivered = new CopyOnWriteArrayList<>();
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket client = server.accept()) {
                    client.setSoTimeout(10_000);
                    converse(client, delivered);
                } catch (IOException e) {
                    // the client went away, or the test ended and closed the server
                }
            }
        }, "refusing-smtp");
        acceptor.setDaemon(true);
        acceptor.start();
        return new RefusingSmtp(server.getLocalPort(), delivered);
    }

    /** One SMTP session: what the relay's mail client says, and the server's replies. */
    private static void converse(Socket client, List<String> delivered) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        Writer out = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8);
        List<String> recipients = new ArrayList<>();
        String reply = "220 refusing-smtp";
        for (String line = ""; line != null; line = in.readLine()) {
            String command = line.toUpperCase(Locale.ROOT);
            if (command.startsWith("RCPT TO:")) {
                String to = line.substring("RCPT TO:".length()).trim();
                reply = to.startsWith("<refused-for-now") ? "450 4.2.1 mailbox busy, try later"
                        : to.startsWith("<refused") ? "550 5.1.1 no such mailbox" : "250 ok";
                if (reply.startsWith("250")) {
                    recipients.add(to);
                }
            } else if (command.equals("DATA")) {
                out.write("354 go on\r\n");
                out.flush();
                for (String data = in.readLine(); data != null && !data.equals("."); data = in.readLine()) {
                    // the message itself is not looked at
                }
                delivered.addAll(recipients);
                recipients.clear();
                reply = "250 queued";
            } else if (command.equals("QUIT")) {
                reply = "221 bye";
            } else if (!line.isEmpty()) { // EHLO, MAIL, RSET, NOOP
                recipients.removeIf(r -> command.startsWith("MAIL") || command.startsWith("RSET"));
                reply = "250 ok";
            }
            out.write(reply + "\r\n");
            out.flush();
            if (reply.startsWith("221")) {
                return;
            }
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
