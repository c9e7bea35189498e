package io.seatlock.lock;

/**
 * What {@link DistributedLock#executeLocked} did: whether the task ran (the lock was free) and what it
 * returned, which may be null. A busy lock and a task that returned null are told apart by
 * {@link #wasExecuted()}, as with ShedLock's {@code TaskResult}.
 */
public final class TaskResult<T> {

    private static final TaskResult<?> NOT_EXECUTED = new TaskResult<>(false, null);

    private final boolean executed;
    private final T result;

    private TaskResult(boolean executed, T result) {
        this.executed = executed;
        this.result = result;
    }

    public static <T> TaskResult<T> executed(T result) {
        return new TaskResult<>(true, result);
    }

    @SuppressWarnings("unchecked")
    public static <T> TaskResult<T> notExecuted() {
        return (TaskResult<T>) NOT_EXECUTED;
    }

    /** True if the lock was free and the task ran to its end. */
    public boolean wasExecuted() {
        return executed;
    }

    /** What the task returned (possibly null); null as well when it did not run. */
    public T result() {
        return result;
    }

    @Override
    public String toString() {
        return executed ? "TaskResult[executed, " + result + "]" : "TaskResult[not executed]";
    }
}
