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
 * @param instanceId   this replica's name, in job runs, captures and leader records
 * @param lockProvider which ShedLock provider guards the jobs
 * @param migration    the start-up migration gate
 * @param leader       the leader election
 */
@ConfigurationProperties("jobs")
@Validated
public record JobsProperties(@DefaultValue("jobs-local") @NotBlank String instanceId,
                             @DefaultValue("seatlock") @NotNull LockProviderKind lockProvider,
                             @DefaultValue @Valid Migration migration,
                             @DefaultValue @Valid Leader leader) {

    public enum LockProviderKind {
        /** shared-lock: owner-checked unlock and extend, always. */
        SEATLOCK,
        /** ShedLock's stock Redis provider (with its safe-update mode switched on). */
        SHEDLOCK_REDIS
    }

    /**
     * @param lockTtl lease of the migration lock (renewed while migrating)
     * @param maxWait how long a replica waits for another one's migration before failing to start
     */
    public record Migration(@DefaultValue("30s") Duration lockTtl, @DefaultValue("5m") Duration maxWait) {
    }

    /**
     * @param enabled whether this replica stands for election
     * @param group   election name; the lock is {@code leader:<group>}
     * @param lease   lease of the leader lock; renewed at a third of it
     * @param retry   pause between attempts of a non-leader
     */
    public record Leader(@DefaultValue("true") boolean enabled, @DefaultValue("jobs") @NotBlank String group,
                         @DefaultValue("10s") Duration lease, @DefaultValue("1s") Duration retry) {
    }
}
