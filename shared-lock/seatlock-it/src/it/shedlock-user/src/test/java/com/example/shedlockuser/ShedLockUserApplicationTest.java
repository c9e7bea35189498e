package com.example.shedlockuser;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest
class ShedLockUserApplicationTest {

    @Autowired
    LockProvider provider;
    @Autowired
    DistributedLock lock;

    @Test
    void theProviderIsSeatlocksAndATaskHeldElsewhereDoesNotRun() throws Throwable {
        assertThat(provider).isInstanceOf(SeatlockLockProvider.class);
        LockingTaskExecutor executor = new DefaultLockingTaskExecutor(provider);
        AtomicInteger runs = new AtomicInteger();
        LockConfiguration report = new LockConfiguration(Instant.now(), "outside-report", Duration.ofSeconds(30),
                Duration.ZERO);
        executor.executeWithLock((LockingTaskExecutor.Task) () -> {
            assertThat(lock.holder("outside-report")).isPresent();
            // the same task on "another replica" (another thread, another executor) while this one holds it: skipped
            LockingTaskExecutor otherReplica = new DefaultLockingTaskExecutor(provider);
            CompletableFuture.runAsync(() -> otherReplica.executeWithLock((Runnable) runs::incrementAndGet, report))
                    .join();
            runs.incrementAndGet();
        }, report);
        assertThat(runs).hasValue(1);
        assertThat(lock.holder("outside-report")).isEmpty();
    }
}
