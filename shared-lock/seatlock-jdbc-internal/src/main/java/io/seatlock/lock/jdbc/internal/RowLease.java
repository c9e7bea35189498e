package io.seatlock.lock.jdbc.internal;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.lock.spi.StoreLease;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One grant: a lease row whose owner token is this lease's. The state machine is {@link StoreLease}'s; here, how a
 * database renews (an owner-checked update of the expiry, on a renewal thread, since JDBC blocks) and deletes it (the
 * owner cleared, the row and its token kept).
 */
final class RowLease extends StoreLease {

    private static final Logger log = LoggerFactory.getLogger(RowLease.class);

    private final LeaseSupport support;

    RowLease(LeaseSupport support, LockSpec spec, String group, String owner, FencingToken token, long startNanos) {
        super(support.services(), spec, group, owner, token, startNanos);
        this.support = support;
    }

    @Override
    protected boolean extend(Duration ttl, long deadline) {
        return support.calls().call(group, deadline, c -> support.dialect().extend(c, spec().name(), ownerToken(), ttl));
    }

    @Override
    protected CompletableFuture<Boolean> extendInBackground() {
        return CompletableFuture.supplyAsync(() -> extend(spec().ttl(), support.calls().callDeadline()),
                support.renewals());
    }

    @Override
    protected boolean delete(@Nullable Duration keepMarkerFor, long deadline) {
        boolean released = support.calls().call(group, deadline, c -> keepMarkerFor == null
                ? support.dialect().release(c, spec().name(), ownerToken())
                : support.dialect().releaseDecided(c, spec().name(), ownerToken(), keepMarkerFor));
        if (released) {
            support.signals().releasedHere(spec().name());
        }
        return released;
    }

    @Override
    protected void logLost(String reason) {
        log.atWarn().addKeyValue("seatlock.event", "lease-lost").addKeyValue("seatlock.lock.name", spec().name())
                .addKeyValue("seatlock.lock.fencing-token", fencingToken().value()).addKeyValue("seatlock.reason", reason)
                .log("Lock '{}' {}; treating it as lost", spec().name(), reason);
    }
}
