package io.seatlock.lock.slots;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input is refused before anything is asked of the database (this JdbcTemplate has none to ask). */
class JobSlotsInputTest {

    private final JobSlots slots = new JobSlots(new JdbcTemplate(), "replica-a");

    @Test
    void badInputIsRefusedWithoutAQuery() {
        assertThatThrownBy(() -> slots.recent(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must not be negative, was -1");
        assertThatThrownBy(() -> slots.claim(" ", Instant.now())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("job name must not be blank");
        assertThatThrownBy(() -> slots.claim("report", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> slots.claimCurrent("report")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not inside a cron- or trigger-scheduled run");
        assertThatThrownBy(() -> new JobSlots(new JdbcTemplate(), "replica-a", "job_runs; DROP TABLE x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
