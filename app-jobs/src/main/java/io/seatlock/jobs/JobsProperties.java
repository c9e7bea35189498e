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
 * @param leader       the leader-only duty
 * @param report       the sales report job
 * @param payments     the payment capture job
 * @param demo         demo orders, so a fresh start has payments to capture
 */
@ConfigurationProperties("jobs")
@Validated
public record JobsProperties(@DefaultValue @Valid Leader leader,
                             @DefaultValue Report report,
                             @DefaultValue Payments payments,
                             @DefaultValue @Valid Demo demo) {

    /**
     * Where {@code @Scheduled} reads these settings from (SpEL on this bean), so each is declared once, here.
     * The bean name is the one {@code @ConfigurationPropertiesScan} gives a properties record.
     */
    public static final String BEAN = "jobs-io.seatlock.jobs.JobsProperties";

    /** @param cron when the report runs; {@code -} switches it off */
    public record Report(@DefaultValue("0 */5 * * * *") String cron) {
    }

    /** @param cron when captures run; {@code -} switches them off */
    public record Payments(@DefaultValue("*/30 * * * * *") String cron) {
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
