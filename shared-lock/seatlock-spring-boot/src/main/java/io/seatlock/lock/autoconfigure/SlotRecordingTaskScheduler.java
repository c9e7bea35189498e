package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.slots.ScheduledSlot;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;

/**
 * Wraps Spring's task scheduler so that each trigger-scheduled run (every {@code @Scheduled(cron = ...)})
 * knows the fire time it was scheduled for, through {@link ScheduledSlot#current()}. Spring asks the trigger for
 * each fire time once, before that run: the thread-pool scheduler after the previous run ended, the asynchronous one
 * (Spring Boot's with virtual threads) right after handing the previous run to a thread of its own, maybe before that
 * thread has started. So each run takes the oldest fire time not yet taken, never the latest one computed.
 */
final class SlotRecordingTaskScheduler implements TaskScheduler {

    private final TaskScheduler delegate;

    SlotRecordingTaskScheduler(TaskScheduler delegate) {
        this.delegate = delegate;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
        SlottedRun run = new SlottedRun(task, trigger);
        return delegate.schedule(run, run);
    }

    private static final class SlottedRun implements Runnable, Trigger {
        private final Runnable task;
        private final Trigger trigger;
        /** Fire times computed and not yet taken by their runs, oldest first: one, or two on the asynchronous scheduler. */
        private final Queue<Instant> slots = new ConcurrentLinkedQueue<>();

        SlottedRun(Runnable task, Trigger trigger) {
            this.task = task;
            this.trigger = trigger;
        }

        @Override
        public Instant nextExecution(TriggerContext context) {
            Instant next = trigger.nextExecution(context);
            if (next != null) {
                slots.add(next);
            }
            return next;
        }

        @Override
        public void run() {
            Instant scheduledFor = slots.poll();
            if (scheduledFor == null) {
                task.run();
            } else {
                ScheduledSlot.runAs(scheduledFor, task);
            }
        }
    }

    @Override
    public Clock getClock() {
        return delegate.getClock();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
        return delegate.schedule(task, startTime);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
        return delegate.scheduleAtFixedRate(task, startTime, period);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
        return delegate.scheduleAtFixedRate(task, period);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Instant startTime, Duration delay) {
        return delegate.scheduleWithFixedDelay(task, startTime, delay);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
        return delegate.scheduleWithFixedDelay(task, delay);
    }
}
