package io.seatlock.seats.outbox;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.seats.SeatsProperties;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.MimeMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mail.MailException;
import org.springframework.mail.MailParseException;
import org.springframework.mail.MailSendException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sends the confirmations that committed bookings left in {@code email_outbox}. Every replica runs it.
 * A row is claimed by one autocommitted statement that leases it ({@code claimed_until}); the e-mail is
 * sent with no transaction open and no row locked (SMTP waits are bounded by the mail timeouts); then the
 * row is marked sent by a statement of its own. So a silent SMTP server holds nothing up, and a crash or a
 * lost connection between the SMTP reply and the mark resends that one row once, after its lease, with
 * the same {@code Idempotency-Key} header and Message-ID for the receiver to drop. A failed send is retried
 * with back-off doubling up to {@code seats.relay.max-backoff}; rows are never given up.
 *
 * <p>A failed send says as much about this replica's SMTP as about the row, so the replica that failed
 * stops claiming for {@code seats.relay.failure-pause} (doubling while it keeps failing), longer than the
 * row's first back-off: a replica with a broken SMTP hands its rows to the healthy ones instead of winning
 * them back each time they come due. After the pause it tries one row; one that goes out ends the pause. A recipient
 * the SMTP server refused is that row's failure alone: the row backs off, the replica goes on.
 */
@Component
class OutboxRelay {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    private record Pending(long id, String idempotencyKey, String recipient, String subject, String body,
                           int attempts) {
    }

    private final JdbcClient jdbc;
    private final JavaMailSender mail;
    private final SeatsProperties.Relay settings;
    private final MeterRegistry meters;

    OutboxRelay(JdbcClient jdbc, JavaMailSender mail, SeatsProperties properties, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.mail = mail;
        this.settings = properties.relay();
        this.meters = meters;
    }

    /** Consecutive failed sends of this replica, and until when it claims nothing (relay rounds never overlap). */
    private volatile int failuresInARow;
    private volatile long pausedUntilNanos = System.nanoTime();

    @Scheduled(fixedDelayString = "#{@'" + SeatsProperties.BEAN + "'.relay().interval()}")
    void relay() {
        if (System.nanoTime() - pausedUntilNanos < 0) {
            return;
        }
        for (int i = 0; i < settings.batchSize(); i++) {
            Optional<Pending> row;
            try {
                row = claimNext();
            } catch (DataAccessException e) {
                log.warn("outbox relay could not claim a row, will retry: {}", e.getMessage());
                return;
            }
            if (row.isEmpty()) {
                return;
            }
            Optional<Duration> failedRowBackoff = deliver(row.get());
            if (failedRowBackoff.isPresent()) {
                pauseClaiming(failedRowBackoff.get());
                return;
            }
            failuresInARow = 0;
        }
    }

    private void pauseClaiming(Duration failedRowBackoff) {
        int failures = ++failuresInARow;
        Duration pause = doubled(settings.failurePause(), failures - 1);
        if (pause.compareTo(failedRowBackoff) <= 0) {
            // A pause that ends with the row's back-off would let this replica win the row back each time: its next
            // round is timed from the failure, as the row's due time is, so it claims first whoever else polls.
            pause = failedRowBackoff.plus(settings.failurePause());
        }
        pausedUntilNanos = System.nanoTime() + pause.toNanos();
        meters.counter("seats.outbox.paused").increment();
        log.warn("{} failed send(s) in a row here: this replica claims no outbox row for {} (others deliver them)",
                failures, pause);
    }

    /** One autocommitted statement: the row is leased; no transaction or row lock outlives it. */
    private Optional<Pending> claimNext() {
        return jdbc.sql("""
                        UPDATE email_outbox SET claimed_until = now() + make_interval(secs => :lease)
                        WHERE id = (SELECT id FROM email_outbox
                                    WHERE status = 'PENDING' AND next_attempt_at <= now()
                                      AND (claimed_until IS NULL OR claimed_until < now())
                                    ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                        RETURNING id, idempotency_key, recipient, subject, body, attempts""")
                .param("lease", settings.claimLease().toMillis() / 1000.0).query(Pending.class).optional();
    }

    /** Sends one claimed row; if the send failed, the back-off the row was handed back with. */
    private Optional<Duration> deliver(Pending row) {
        try {
            mail.send(message(row));
        } catch (MailException | MessagingException e) {
            Duration backoff = retryLater(row, e);
            // A recipient the server refused (or no mail client could address) says nothing of this replica's SMTP,
            // which answered: no pause, else every confirmation behind that row would wait each time it came due.
            return refusesTheRecipient(e) ? Optional.empty() : Optional.of(backoff);
        }
        try {
            jdbc.sql("""
                            UPDATE email_outbox SET status = 'SENT', sent_at = now(), attempts = attempts + 1,
                              claimed_until = NULL WHERE id = :id""")
                    .param("id", row.id()).update();
            meters.counter("seats.outbox.sent").increment();
        } catch (DataAccessException e) {
            // Sent but not marked: once its lease ends this one row goes out again, same Idempotency-Key.
            meters.counter("seats.outbox.unmarked").increment();
            log.warn("sent {} but could not mark it sent; it will be resent once: {}", row.idempotencyKey(),
                    e.getMessage());
        }
        return Optional.empty();
    }

    private Duration retryLater(Pending row, Exception error) {
        // 1 s, 2 s, 4 s ... per row: below the failing replica's own pause, so another replica gets it first.
        long backoff = doubled(Duration.ofSeconds(1), row.attempts()).toSeconds();
        try {
            jdbc.sql("""
                            UPDATE email_outbox SET attempts = attempts + 1, last_error = :error, claimed_until = NULL,
                              next_attempt_at = now() + make_interval(secs => :backoff)
                            WHERE id = :id""")
                    .param("error", String.valueOf(error.getMessage())).param("backoff", backoff)
                    .param("id", row.id()).update();
        } catch (DataAccessException e) {
            log.warn("could not record the failed send of {}: {}", row.idempotencyKey(), e.getMessage());
        }
        meters.counter("seats.outbox.failed").increment();
        log.warn("could not send {} (attempt {}), retrying in {} s: {}", row.idempotencyKey(), row.attempts() + 1,
                backoff, error.getMessage());
        return Duration.ofSeconds(backoff);
    }

    /**
     * Whether the send failed for this row's recipient alone: the SMTP server refused it at {@code RCPT} (for good, as
     * {@code 550 no such mailbox}, or for now, as {@code 450 mailbox busy}: a {@link SendFailedException} naming invalid
     * addresses, or carrying the server's answer to the recipient as a {@code SendFailedException} of its own), or it
     * is no address the mail client can write. A failure of the connection or of {@code DATA} is the replica's.
     */
    private static boolean refusesTheRecipient(Exception failure) {
        List<Throwable> causes = new ArrayList<>();
        causes.add(failure);
        if (failure instanceof MailSendException send) {
            causes.addAll(send.getFailedMessages().values());
        }
        for (Throwable top : causes) {
            boolean sendFailed = false;
            for (Throwable cause = top; cause != null; cause = cause.getCause()) {
                if (cause instanceof AddressException || cause instanceof MailParseException) {
                    return true;
                }
                if (cause instanceof SendFailedException refused) {
                    if (sendFailed || refused.getInvalidAddresses() != null && refused.getInvalidAddresses().length > 0) {
                        return true;
                    }
                    sendFailed = true;
                }
            }
        }
        return false;
    }

    /** {@code first} doubled {@code times} times, at most {@code seats.relay.max-backoff}. */
    private Duration doubled(Duration first, int times) {
        Duration doubled = first.multipliedBy(1L << Math.min(times, 30));
        return doubled.compareTo(settings.maxBackoff()) > 0 ? settings.maxBackoff() : doubled;
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
