package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.slots.ScheduledSlot;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each trigger-scheduled run knows its own fire time, on either of Spring's schedulers: the thread pool (Spring Boot's
 * default), which computes the next fire time after a run ends, and the simple asynchronous one (Spring Boot's with
 * {@code spring.threads.virtual.enabled}), which starts each run on a thread of its own and computes the next fire time
 * at once, maybe before that thread has started.
 */
class SlotRecordingTaskSchedulerTest {

    private static final Duration PERIOD = Duration.ofMillis(300);
    private static final int RUNS = 3;

    /** Fires every PERIOD from {@code first}, counting the fire times it has computed. */
    private record Every(Instant first, AtomicInteger computed) implements Trigger {
        @Override
        public Instant nextExecution(TriggerContext context) {
            Instant last = context.lastScheduledExecution();
            computed.incrementAndGet();
            return last == null ? first : last.plus(PERIOD);
        }
    }

    @Test
    void onTheAsynchronousSchedulerARunThatStartsAfterTheNextFireTimeWasComputedKnowsItsOwn() {
        AtomicInteger computed = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        SimpleAsyncTaskScheduler async = new SimpleAsyncTaskScheduler();
        // Each run's thread starts only once the scheduler has computed the fire time after it: a busy machine's order.
        async.setTaskDecorator(run -> () -> {
            int mine = started.incrementAndGet();
            await().atMost(Duration.ofSeconds(30)).until(() -> computed.get() > mine);
            run.run();
        });
        async.start();
        try {
            Instant first = firstFireTime();
            assertThat(slotsOfRuns(async, computed, first)).containsExactly(first, first.plus(PERIOD),
                    first.plus(PERIOD.multipliedBy(2)));
        } finally {
            async.close();
        }
    }

    @Test
    void onTheThreadPoolSchedulerEachRunKnowsItsOwnFireTime() {
        ThreadPoolTaskScheduler pool = new ThreadPoolTaskScheduler();
        pool.initialize();
        try {
            Instant first = firstFireTime();
            assertThat(slotsOfRuns(pool, new AtomicInteger(), first)).containsExactly(first, first.plus(PERIOD),
                    first.plus(PERIOD.multipliedBy(2)));
        } finally {
            pool.shutdown();
        }
    }

    private static Instant firstFireTime() {
        return Instant.now().plus(PERIOD).truncatedTo(ChronoUnit.MILLIS);
    }

    /** The slots the first RUNS runs of a task scheduled every PERIOD from {@code first} were told. */
    private static List<Instant> slotsOfRuns(TaskScheduler base, AtomicInteger computed, Instant first) {
        List<Instant> slots = new CopyOnWriteArrayList<>();
        ScheduledFuture<?> runs = new SlotRecordingTaskScheduler(base).schedule(
                () -> slots.add(ScheduledSlot.current().orElseThrow()), new Every(first, computed));
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> slots.size() >= RUNS);
        } finally {
            runs.cancel(false);
        }
        return slots.subList(0, RUNS);
    }
}
