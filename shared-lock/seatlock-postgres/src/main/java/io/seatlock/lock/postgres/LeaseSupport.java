package io.seatlock.lock.postgres;

import io.seatlock.lock.LockListener;
import io.seatlock.lock.spi.CallbackThreads;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * What a lease needs from the lock that granted it, handed over once: the lease never reaches back into the lock.
 *
 * @param calls      bounded calls to PostgreSQL
 * @param statements the owner-checked statements
 * @param settings   the safety margin
 * @param listener   told what the lease does (guarded)
 * @param watchdogs  decides when to renew; never blocks
 * @param renewals   runs renewals, which block on PostgreSQL for at most a call timeout each
 * @param callbacks  runs lost-lease callbacks, each on a thread of its own
 * @param ended      told when the lease ends (released or lost), to drop it from the held ones
 */
record LeaseSupport(PostgresCalls calls, LeaseStatements statements, PostgresLockSettings settings,
                    LockListener listener, ScheduledExecutorService watchdogs, ExecutorService renewals,
                    CallbackThreads callbacks, Consumer<PostgresLease> ended) {
}
