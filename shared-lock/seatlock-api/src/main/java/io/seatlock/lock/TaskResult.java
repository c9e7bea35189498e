package io.seatlock.lock;

import org.jspecify.annotations.Nullable;

/**
 * What {@link DistributedLock#executeLocked} did: whether the task ran (the lock was free) and what it
 * returned, which may be null. A busy lock and a task that returned null are told apart by
 * {@link #wasExecuted()}, as with ShedLock's {@code TaskResult}.
 *
 * @param <T> what the task returns
 */
public final class TaskResult<T extends @Nullable Object> {

    private static final TaskResult<?> NOT_EXECUTED = new TaskResult<>(false, null);

    private final boolean executed;
    private final @Nullable T result;

    private TaskResult(boolean executed, @Nullable T result) {
        this.executed = executed;
        this.result = result;
    }

    /**
     * The task ran.
     * @param result what it returned, possibly null
     * @param <T> the result type
     * @return a result that says it ran
     */
    public static <T extends @Nullable Object> TaskResult<T> executed(@Nullable T result) {
        return new TaskResult<>(true, result);
    }

    /**
     * The task did not run: the lock was busy.
     * @param <T> the result type
     * @return the shared not-executed result
     */
    @SuppressWarnings("unchecked")
    public static <T extends @Nullable Object> TaskResult<T> notExecuted() {
        return (TaskResult<T>) NOT_EXECUTED;
    }

    /**
     * Whether the task ran.
     *
     * @return true if the lock was free and the task ran to its end
     */
    public boolean wasExecuted() {
        return executed;
    }

    /**
     * What the task returned.
     *
     * @return the result, possibly null; null as well when it did not run
     */
    public @Nullable T result() {
        return result;
    }

    @Override
    public String toString() {
        return executed ? "TaskResult[executed, " + result + "]" : "TaskResult[not executed]";
    }
}
