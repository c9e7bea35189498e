package example;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.Pause;
import io.seatlock.test.Pauses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The PostgreSQL store from outside (docs/postgres.md's snippet): a replica whose lease ran out while it paused before
 * its write is refused inside its own transaction, though nobody else has written since.
 */
class ExamplePostgresStoreTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ExamplePostgresStoreTest");
    @RegisterExtension
    final Pauses pauses = new Pauses();
    private final ExampleReplicas replicas = new ExampleReplicas(servers);

    @AfterEach
    void stop() {
        replicas.close();
    }

    @Test
    void aReplicaPausedPastItsLeaseWritesNothingEvenBeforeAnotherWrites() throws Exception {
        ConfigurableApplicationContext a = replicas.start("replica-a", "seatlock.lock.store=postgres");
        assertThat(a.getBean(DistributedLock.class)).isInstanceOf(PostgresLock.class);
        LedgerService ledger = a.getBean(LedgerService.class);
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());
        assertThat(ledger.record("acct-1", 500)).isTrue();

        Pause beforeWrite = pauses.holdFirst("ledger-write");
        CompletableFuture<Boolean> paused = CompletableFuture.supplyAsync(() -> ledger.record("acct-1", 700));
        beforeWrite.awaitArrival();
        // the lease runs out in the store while the holder stands still (a pause past a 10 s lease, shortened here)
        db.update("UPDATE seatlock.leases SET expires_at = clock_timestamp() WHERE name = 'ledger:acct-1'");
        Pauses.awaitExpired(a.getBean(DistributedLock.class), "ledger:acct-1");
        beforeWrite.open();

        assertThatThrownBy(() -> paused.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(StaleFencingTokenException.class);
        assertThat(db.queryForList("SELECT cents FROM example_ledger WHERE account = 'acct-1'", Long.class))
                .containsExactly(500L);
    }
}
