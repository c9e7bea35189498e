package io.seatlock.lock.postgres;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.lock.spi.StoreLease;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One grant: a lease row whose owner token is this lease's. The state machine is {@link StoreLease}'s; here, how
 * PostgreSQL renews (an owner-checked update of the expiry, on a renewal thread, since JDBC blocks) and deletes it
 * (the owner cleared, the row and its token kept).
 */
final class PostgresLease extends StoreLease {

    private static final Logger log = LoggerFactory.getLogger(PostgresLease.class);

    private final LeaseSupport support;

    PostgresLease(LeaseSupport support, LockSpec spec, String group, String owner, FencingToken token, long startNanos) {
        super(support.services(), spec, group, owner, token, startNanos);
        this.support = support;
    }

    @Override
    protected boolean extend(Duration ttl, long deadline) {
        return support.calls().call(group, deadline, c -> support.statements().extend(c, spec().name(), ownerToken(), ttl));
    }

    @Override
    protected CompletableFuture<Boolean> extendInBackground() {
        return CompletableFuture.supplyAsync(() -> extend(spec().ttl(), support.calls().callDeadline()),
                support.renewals());
    }

    @Override
    protected boolean delete(@Nullable Duration keepMarkerFor, long deadline) {
        return support.calls().call(group, deadline, c -> keepMarkerFor == null
                ? support.statements().release(c, spec().name(), ownerToken())
                : support.statements().releaseDecided(c, spec().name(), ownerToken(), keepMarkerFor));
    }

    @Override
    protected void logLost(String reason) {
        log.atWarn().addKeyValue("seatlock.event", "lease-lost").addKeyValue("seatlock.lock.name", spec().name())
                .addKeyValue("seatlock.lock.fencing-token", fencingToken().value()).addKeyValue("seatlock.reason", reason)
                .log("Lock '{}' {}; treating it as lost", spec().name(), reason);
    }
}
