package io.seatlock.seats.outbox;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.seats.SeatsProperties;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mail.MailException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.List;

/**
 * Sends the confirmations that committed bookings left in {@code email_outbox}. Every replica runs it:
 * {@code FOR UPDATE SKIP LOCKED} hands each row to one of them, and the row is marked sent in the same
 * transaction that held it. A crash between send and commit resends once, with the same
 * {@code Idempotency-Key} header and Message-ID, so a provider that deduplicates drops it.
 */
@Component
class OutboxRelay {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    private record Pending(long id, String idempotencyKey, String recipient, String subject, String body,
                           int attempts) {
    }

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final JavaMailSender mail;
    private final SeatsProperties.Relay settings;
    private final MeterRegistry meters;

    OutboxRelay(JdbcClient jdbc, TransactionTemplate transactions, JavaMailSender mail, SeatsProperties properties,
                MeterRegistry meters) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.mail = mail;
        this.settings = properties.relay();
        this.meters = meters;
    }

    @Scheduled(fixedDelayString = "${seats.relay.interval:500ms}")
    void relay() {
        try {
            transactions.executeWithoutResult(tx -> claimBatch().forEach(this::deliver));
        } catch (RuntimeException e) {
            log.warn("outbox relay round failed, will retry: {}", e.getMessage());
        }
    }

    private List<Pending> claimBatch() {
        return jdbc.sql("""
                        SELECT id, idempotency_key, recipient, subject, body, attempts FROM email_outbox
                        WHERE status = 'PENDING' AND next_attempt_at <= now()
                        ORDER BY id LIMIT :n FOR UPDATE SKIP LOCKED""")
                .param("n", settings.batchSize()).query(Pending.class).list();
    }

    private void deliver(Pending row) {
        try {
            mail.send(message(row));
            jdbc.sql("UPDATE email_outbox SET status = 'SENT', sent_at = now(), attempts = attempts + 1 WHERE id = :id")
                    .param("id", row.id()).update();
            meters.counter("seats.outbox.sent").increment();
        } catch (MailException | MessagingException e) {
            boolean dead = row.attempts() + 1 >= settings.maxAttempts();
            jdbc.sql("""
                            UPDATE email_outbox SET attempts = attempts + 1, last_error = :error,
                              status = CASE WHEN :dead THEN 'DEAD' ELSE 'PENDING' END,
                              next_attempt_at = now() + make_interval(secs => power(2, attempts + 1))
                            WHERE id = :id""")
                    .param("error", String.valueOf(e.getMessage())).param("dead", dead).param("id", row.id())
                    .update();
            meters.counter("seats.outbox.failed", "dead", Boolean.toString(dead)).increment();
            log.warn("could not send {} (attempt {}): {}", row.idempotencyKey(), row.attempts() + 1, e.getMessage());
        }
    }

    private MimeMessage message(Pending row) throws MessagingException {
        MimeMessage message = mail.createMimeMessage();
        MimeMessageHelper helper = new MimeMessageHelper(message, false, "UTF-8");
        helper.setFrom(settings.from());
        helper.setTo(row.recipient());
        helper.setSubject(row.subject());
        helper.setText(row.body());
        message.setHeader("Idempotency-Key", row.idempotencyKey());
        message.saveChanges();
        message.setHeader("Message-ID", "<" + row.idempotencyKey() + "@seatlock>");
        return message;
    }
}
