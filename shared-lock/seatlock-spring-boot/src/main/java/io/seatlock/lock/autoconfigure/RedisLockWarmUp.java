package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.spi.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Connects the lock while the application starts, in the background, so the application's first lock
 * call finds a connection (or one under way) instead of paying for the first connect inside its own
 * command timeout. Runs once every bean exists, before lifecycle beans (web server, elections, scheduled
 * jobs) start; never holds up start-up; a Redis that is down is only logged.
 */
final class RedisLockWarmUp implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(RedisLockWarmUp.class);

    private final RedisLockClient lock;

    RedisLockWarmUp(RedisLockClient lock) {
        this.lock = lock;
    }

    @Override
    public void afterSingletonsInstantiated() {
        DaemonThreads.named("seatlock-warm-up").newThread(() -> {
            try {
                lock.ping();
            } catch (LockUnavailableException e) {
                log.info("Redis does not answer yet ({}); lock calls fail fast until it does", e.getMessage());
            } catch (IllegalStateException e) {
                log.debug("not warming up the lock: the application closed it first"); // a context closed at once
            }
        }).start();
    }
}
