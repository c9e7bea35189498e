package io.seatlock.lock.internal;

import java.util.concurrent.ThreadFactory;

/** For implementations: threads that never keep the JVM alive, named for thread dumps. */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /**
     * A factory of daemon threads all named {@code name}.
     *
     * @param name the threads' name
     * @return the factory
     */
    public static ThreadFactory named(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
