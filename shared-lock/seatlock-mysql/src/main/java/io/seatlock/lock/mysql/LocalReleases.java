package io.seatlock.lock.mysql;

import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.jdbc.internal.JdbcCalls;
import io.seatlock.lock.jdbc.internal.LeaseTableDialect;
import io.seatlock.lock.jdbc.internal.ReleaseSignals;
import io.seatlock.lock.jdbc.internal.ReleaseWaiters;
import io.seatlock.lock.spi.LockListeners;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * MySQL and MariaDB announce no release ({@code LISTEN/NOTIFY} has no counterpart), so a waiter learns of a release by
 * another process at its next try, within its back-off; a release by this lock wakes this lock's waiters at once, and
 * a hint asked for a lock that turns out to be free (one statement, in the background) completes at once.
 */
final class LocalReleases implements ReleaseSignals {

    private static final Logger log = LoggerFactory.getLogger(LocalReleases.class);

    private final ReleaseWaiters waiting = new ReleaseWaiters();
    private final JdbcCalls calls;
    private final LeaseTableDialect statements;
    private final Executor background;

    LocalReleases(JdbcCalls calls, LeaseTableDialect statements, Executor background) {
        this.calls = calls;
        this.statements = statements;
        this.background = background;
    }

    @Override
    public CompletableFuture<Void> next(String name) {
        CompletableFuture<Void> released = waiting.next(name);
        try {
            background.execute(() -> {
                try {
                    if (calls.call(LockListeners.groupOf(name), c -> statements.remainingMillis(c, name)).isEmpty()) {
                        released.complete(null); // free already
                    }
                } catch (LockUnavailableException e) {
                    log.debug("could not tell whether '{}' is free; the waiter polls: {}", name, e.getMessage());
                }
            });
        } catch (RejectedExecutionException closing) {
            released.cancel(false);
        }
        return released;
    }

    @Override
    public void releasedHere(String name) {
        waiting.wake(name);
    }

    @Override
    public void close() {
        waiting.cancelAll();
    }
}
