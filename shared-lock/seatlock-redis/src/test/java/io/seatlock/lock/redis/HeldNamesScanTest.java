package io.seatlock.lock.redis;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * heldNames walks the keyspace a SCAN page at a time. Each next page is asked for off the client's I/O thread,
 * on threads the client keeps: never a thread started per page (CompletableFuture's default executor does
 * that on a machine with fewer than 3 cores).
 */
class HeldNamesScanTest {

    @Test
    void listingHeldNamesOverManyScanPagesFindsThemAllAndStartsNoThreadPerPage() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             RedisLockClient lock = TestTransports.standalone(redis.server().uri(), Duration.ofSeconds(5),
                     RedisLockSettings.defaults(), LockListener.NOOP)) {
            String populated = redis.server().with(r -> r.dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("POPULATE").add(50_000).add("unrelated")));
            assertThat(populated).isEqualTo("OK");
            try (LockLease a = lock.tryAcquire("report:a", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
                 LockLease b = lock.tryAcquire("report:b", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow()) {
                assertThat(lock.heldNames("report:")).containsExactlyInAnyOrder("report:a", "report:b"); // threads warm
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                long scansBefore = redis.server().commandCalls().getOrDefault("scan", 0L);
                long startedBefore = threads.getTotalStartedThreadCount();

                Set<String> names = lock.heldNames("report:");

                long started = threads.getTotalStartedThreadCount() - startedBefore;
                long pages = redis.server().commandCalls().getOrDefault("scan", 0L) - scansBefore;
                assertThat(names).containsExactlyInAnyOrder("report:a", "report:b");
                assertThat(pages).as("SCAN pages over 50,000 keys, 1,000 a page").isGreaterThanOrEqualTo(40);
                assertThat(started).as("threads started while %d pages were read", pages).isLessThan(pages / 4);
            }
        }
    }
}
