package io.seatlock.lock.autoconfigure;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The {@code seatlock} health check ({@link SeatlockHealth}) as Spring Boot 4's health indicator. */
class Boot4SeatlockHealthIndicator extends AbstractHealthIndicator {

    private final SeatlockHealth health;

    Boot4SeatlockHealthIndicator(ReplicaLocks lock) {
        super("seatlock health check failed");
        this.health = new SeatlockHealth(lock);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        SeatlockHealth.Report report = health.check();
        builder.status(report.up() ? Status.UP : new Status(SeatlockHealth.DEGRADED, report.description()))
                .withDetails(report.details());
    }
}
