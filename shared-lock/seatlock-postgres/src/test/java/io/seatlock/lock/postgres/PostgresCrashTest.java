package io.seatlock.lock.postgres;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.localservers.OwnedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The PostgreSQL lock when its server process is killed ({@code SIGKILL}, every backend with it) and started again on
 * its own data, on a PostgreSQL of this test's own: callers hear it unavailable within the call bound, a kept-alive
 * lease is lost before its local deadline, and what was committed before the crash, grants included, is there after it.
 */
class PostgresCrashTest {

    private static final Duration CALL = Duration.ofMillis(500);
    private static final Duration LONG = Duration.ofMinutes(5);

    private static OwnedPostgres postgres;
    private final PostgresLocks locks = new PostgresLocks();

    @BeforeAll
    static void startOwnServer() throws Exception {
        postgres = new OwnedPostgres();
    }

    @AfterAll
    static void stopOwnServer() throws Exception {
        postgres.close();
    }

    @AfterEach
    void closeLocks() throws Exception {
        locks.close();
    }

    private PostgresLock lock(OwnedPostgres server, String instance) {
        String url = server.server().jdbcUrl("postgres");
        return locks.lock(locks.pool(server.server(), url, 4, CALL),
                PostgresLockSettings.defaults().withInstanceId(instance).withCallTimeout(CALL), LockListener.NOOP);
    }

    @Test
    void aKilledServerIsUnavailableWithinTheBoundLosesKeptLeasesAndKeepsWhatItCommitted() throws Exception {
        PostgresLock a = lock(postgres, "a");
        PostgresLock b = lock(postgres, "b");
        a.createTable();
        LockLease held = a.tryAcquire("held", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        PostgresLocks.KeptLease kept = PostgresLocks.KeptLease.on(a, "kept", Duration.ofMillis(2400));

        postgres.kill();
        PostgresLocks.assertUnavailableWithin(b, CALL);
        kept.assertLostBeforeItsDeadline();

        postgres.start();
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> b.holder("held").isPresent());
        assertThat(b.holder("held")).as("a grant committed before the crash").contains("a");
        assertThat(b.tryAcquire("held", LONG, OverlapImpact.BROKEN_PROMISE)).as("still held").isEmpty();
        assertThat(held.release()).isEqualTo(ReleaseOutcome.RELEASED);

        LockLease next = await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> b.tryAcquire("kept", LONG, OverlapImpact.BROKEN_PROMISE).orElse(null), l -> l != null);
        assertThat(next.fencingToken().value()).as("tokens grow across the crash")
                .isGreaterThan(kept.lease().fencingToken().value());
    }

    @Test
    void withAsynchronousCommitACrashTakesBackAGrantItHadAcknowledged() throws Exception {
        try (OwnedPostgres asynchronous = new OwnedPostgres(Map.of("synchronous_commit", "off",
                "wal_writer_delay", "10s", "bgwriter_lru_maxpages", "0"))) {
            PostgresLock a = lock(asynchronous, "a");
            a.createTable();
            try (Connection c = asynchronous.server().connect("postgres"); Statement s = c.createStatement()) {
                s.execute("CHECKPOINT"); // the table is on disk; what follows is only acknowledged
            }
            LockLease granted = a.tryAcquire("acknowledged", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();
            assertThat(granted.isValid()).isTrue();

            asynchronous.kill();
            asynchronous.start();
            PostgresLock b = lock(asynchronous, "b");
            LockLease again = await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> b.tryAcquire("acknowledged", LONG, OverlapImpact.BROKEN_PROMISE).orElse(null),
                            l -> l != null);
            assertThat(again.fencingToken().value()).as("the lost grant's token is handed out again")
                    .isEqualTo(granted.fencingToken().value());
            assertThat(granted.isValid()).as("its holder cannot tell").isTrue();
        }
    }
}
