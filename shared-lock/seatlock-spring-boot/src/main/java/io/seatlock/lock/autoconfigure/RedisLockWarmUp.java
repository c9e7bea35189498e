package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.spi.DaemonThreads;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Connects the lock while the application starts, in the background, so the application's first lock
 * call finds a connection (or one under way) instead of paying for the first connect inside its own
 * command timeout. Never holds up start-up; a Redis that is down is only logged.
 */
final class RedisLockWarmUp implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RedisLockWarmUp.class);

    private final @Nullable RedisLockClient lock;
    private volatile boolean running;

    RedisLockWarmUp(@Nullable RedisLockClient lock) {
        this.lock = lock;
    }

    @Override
    public void start() {
        running = true;
        RedisLockClient client = lock;
        if (client == null) {
            return;
        }
        DaemonThreads.named("seatlock-warm-up").newThread(() -> {
            try {
                client.ping();
            } catch (LockUnavailableException e) {
                log.info("Redis does not answer yet ({}); lock calls fail fast until it does", e.getMessage());
            }
        }).start();
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Early among the lifecycle beans: before the web server, elections and scheduled jobs start. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }
}
