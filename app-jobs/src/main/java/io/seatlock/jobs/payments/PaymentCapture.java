package io.seatlock.jobs.payments;

import io.seatlock.lock.slots.JobSlots;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Captures pending payments. Overlap would charge twice ({@code BROKEN_PROMISE}), so the lock is not
 * trusted: the slot is claimed in {@code job_runs} (seatlock's {@link JobSlots}), and each capture is a conditional state change
 * that only one writer can make.
 */
@Component
public class PaymentCapture {

    private final JdbcClient jdbc;
    private final JobSlots slots;

    PaymentCapture(JdbcClient jdbc, JobSlots slots) {
        this.jdbc = jdbc;
        this.slots = slots;
    }

    /** Captures what is due for {@code slot}; returns how many this call captured (0 if the slot ran already). */
    @Transactional
    public int captureDue(Instant slot) {
        if (!slots.claim("payment-capture", slot)) {
            return 0;
        }
        List<Long> pending = jdbc.sql("SELECT id FROM payments WHERE state = 'PENDING' ORDER BY id")
                .query(Long.class).list();
        int captured = 0;
        for (long id : pending) {
            captured += jdbc.sql("""
                            UPDATE payments SET state = 'CAPTURED', captured_by = :runner, captured_at = now(),
                              captured_slot = :slot
                            WHERE id = :id AND state = 'PENDING'""")
                    .param("runner", slots.runner()).param("slot", OffsetDateTime.ofInstant(slot, ZoneOffset.UTC))
                    .param("id", id).update();
        }
        return captured;
    }
}
