package io.seatlock.lock.jdbc.internal;

import io.seatlock.lock.spi.LeaseServices;

import java.util.concurrent.ExecutorService;

/**
 * What a lease needs from the lock that granted it, handed over once: the lease never reaches back into the lock.
 *
 * @param calls    bounded calls to the database
 * @param dialect  the owner-checked statements
 * @param renewals runs renewals, which block on the database for at most a call timeout each
 * @param services what every store's lease is handed
 * @param signals  told of each release, for the waiters of this lock
 */
record LeaseSupport(JdbcCalls calls, LeaseTableDialect dialect, ExecutorService renewals, LeaseServices services,
                    ReleaseSignals signals) {
}
