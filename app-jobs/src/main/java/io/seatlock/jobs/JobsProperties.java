package io.seatlock.jobs;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * {@code jobs.*}.
 *
 * @param lockProvider which ShedLock provider guards the jobs
 * @param leader       the leader-only duty
 * @param demo         demo orders, so a fresh start has payments to capture
 */
@ConfigurationProperties("jobs")
@Validated
public record JobsProperties(@DefaultValue("seatlock") @NotNull LockProviderKind lockProvider,
                             @DefaultValue @Valid Leader leader,
                             @DefaultValue @Valid Demo demo) {

    public enum LockProviderKind {
        /** seatlock: owner-checked unlock and extend, always. */
        SEATLOCK,
        /** ShedLock's stock Redis provider (with its safe-update mode switched on). */
        SHEDLOCK_REDIS
    }

    /**
     * @param group        the leader group (of {@code seatlock.leader.groups}) whose leader does the leader-only duty
     * @param dutyInterval pause between runs of the leader-only duty
     */
    public record Leader(@DefaultValue("jobs") @NotBlank String group, @DefaultValue("5s") Duration dutyInterval) {
    }

    /**
     * @param enabled    place a pending demo payment now and then (off unless asked for: the development run
     *                   and docker-compose switch it on)
     * @param orderEvery pause between demo payments
     */
    public record Demo(@DefaultValue("false") boolean enabled, @DefaultValue("10s") @NotNull Duration orderEvery) {
    }
}
