package io.seatlock.lock.autoconfigure;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/** The {@code seatlock} health check ({@link SeatlockHealth}) as Spring Boot 3.5's health indicator. */
class Boot3SeatlockHealthIndicator extends AbstractHealthIndicator {

    private final SeatlockHealth health;

    Boot3SeatlockHealthIndicator(ReplicaLocks lock) {
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
