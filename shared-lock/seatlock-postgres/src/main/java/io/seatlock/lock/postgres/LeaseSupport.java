package io.seatlock.lock.postgres;

import io.seatlock.lock.spi.LeaseServices;

import java.util.concurrent.ExecutorService;

/**
 * What a lease needs from the lock that granted it, handed over once: the lease never reaches back into the lock.
 *
 * @param calls      bounded calls to PostgreSQL
 * @param statements the owner-checked statements
 * @param renewals   runs renewals, which block on PostgreSQL for at most a call timeout each
 * @param services   what every store's lease is handed
 */
record LeaseSupport(PostgresCalls calls, LeaseStatements statements, ExecutorService renewals,
                    LeaseServices services) {
}
