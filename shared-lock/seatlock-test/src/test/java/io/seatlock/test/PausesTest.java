package io.seatlock.test;

import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.spi.CheckpointHandlers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class PausesTest {

    @RegisterExtension
    final Pauses pauses = new Pauses();

    @Test
    void aCheckpointNobodyHoldsIsPassedAtOnce() throws Exception {
        assertThat(CheckpointHandlers.current()).as("production: nothing registered").isNull();
        assertThat(CompletableFuture.runAsync(() -> Checkpoint.reach("nobody-holds-this")))
                .succeedsWithin(Duration.ofSeconds(10));
        Pause other = pauses.holdFirst("something-else");
        assertThat(CheckpointHandlers.current()).isNotNull();
        assertThat(CompletableFuture.runAsync(() -> Checkpoint.reach("nobody-holds-this")))
                .as("a handler, but not for this name").succeedsWithin(Duration.ofSeconds(10));
        assertThat(other.hasArrived()).isFalse();
        pauses.close();
        assertThat(CheckpointHandlers.current()).as("removed after the test").isNull();
    }

    @Test
    void theFirstThreadIsHeldPastItsLeaseWhileALaterOnePasses() throws Exception {
        ManualClock clock = new ManualClock();
        InMemoryLock a = new InMemoryLock(clock, "a");
        InMemoryLock b = a.replica("b");
        Pause beforeWrite = pauses.holdFirst("write");

        CompletableFuture<Boolean> aWrote = CompletableFuture.supplyAsync(() -> {
            LockLease lease = a.tryAcquire("seat:14C", Duration.ofSeconds(1), OverlapImpact.BROKEN_PROMISE).orElseThrow();
            Checkpoint.reach("write");
            return lease.isValid();
        });
        Thread held = beforeWrite.awaitArrival();
        await().atMost(Duration.ofSeconds(10)).until(() -> held.getState() == Thread.State.WAITING
                || held.getState() == Thread.State.TIMED_WAITING);
        clock.advance(Duration.ofSeconds(2));
        Pauses.awaitExpired(a, "seat:14C");
        assertThat(b.tryAcquire("seat:14C", Duration.ofSeconds(1), OverlapImpact.BROKEN_PROMISE)).isPresent();
        Checkpoint.reach("write"); // the competitor passes the same checkpoint
        assertThat(aWrote).isNotDone();

        beforeWrite.open();
        assertThat(aWrote.get(10, TimeUnit.SECONDS)).as("A wakes with a lease it no longer holds").isFalse();
    }

    @Test
    void aHeldThreadThatIsInterruptedStaysHeldAsAPausedJvmWouldAndKeepsTheInterruptForAfter() throws Exception {
        Pause beforeWrite = pauses.holdFirst("interrupted");
        AtomicBoolean wrote = new AtomicBoolean();
        AtomicBoolean interruptedWhenWriting = new AtomicBoolean();
        Thread holder = new Thread(() -> {
            Checkpoint.reach("interrupted");
            interruptedWhenWriting.set(Thread.currentThread().isInterrupted());
            wrote.set(true);
        }, "held-holder");
        holder.start();
        assertThat(beforeWrite.awaitArrival()).isSameAs(holder);

        holder.interrupt(); // as a lost lease's callback interrupts its worker (executeLocked)
        // It noticed the interrupt (the flag is taken) and waits again, still before its write.
        await().atMost(Duration.ofSeconds(10)).until(() -> !holder.isInterrupted()
                && (holder.getState() == Thread.State.WAITING || holder.getState() == Thread.State.TIMED_WAITING));
        assertThat(wrote).isFalse();

        beforeWrite.open();
        holder.join(Duration.ofSeconds(10).toMillis());
        assertThat(wrote).isTrue();
        assertThat(interruptedWhenWriting).as("the interrupt is there for the code after the checkpoint").isTrue();
    }
}
