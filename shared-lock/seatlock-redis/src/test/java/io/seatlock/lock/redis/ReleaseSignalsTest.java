package io.seatlock.lock.redis;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bookkeeping of who waits for which release, without Redis (the subscription is not made here): a waiter is
 * told of the next release however its registration interleaves with other waiters of the same name forgetting
 * themselves.
 */
class ReleaseSignalsTest {

    /**
     * One thread keeps registering a waiter and giving up on it at once (its clean-up empties the name's set and
     * drops it), the other registers, announces a release and checks its own waiter was told. A waiter added to a
     * set just dropped would never be told; it would sleep out its back-off while the lock sat free.
     */
    @Test
    void aWaiterRegisteringWhileAnotherGivesUpIsToldOfTheRelease() throws Exception {
        ReleaseSignals signals = new ReleaseSignals(null, new RedisKeys("signals:")); // next() and released() never call Redis
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread givingUp = new Thread(() -> {
            started.countDown();
            while (!stop.get()) {
                signals.next("seat").cancel(false);
            }
        }, "giving-up");
        givingUp.start();
        started.await();
        int untold = 0;
        int rounds = 500_000;
        try {
            for (int i = 0; i < rounds; i++) {
                CompletableFuture<Void> waiter = signals.next("seat");
                signals.released("seat");
                if (!waiter.isDone()) {
                    untold++;
                    waiter.cancel(false);
                }
            }
        } finally {
            stop.set(true);
            givingUp.join(TimeUnit.SECONDS.toMillis(30));
        }

        assertThat(givingUp.isAlive()).isFalse();
        assertThat(untold).as("waiters not told of a release announced after they registered, of %d", rounds).isZero();
    }
}
