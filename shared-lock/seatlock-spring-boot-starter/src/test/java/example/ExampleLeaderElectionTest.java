package example;

import io.seatlock.test.WriteHistory;
import io.seatlock.test.WriteHistory.Outcome;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderWrite;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.leader.LeadershipGranted;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Leader election from outside: one leader per group, and a write under a stale epoch is refused. */
class ExampleLeaderElectionTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ExampleLeaderElectionTest");
    private final ExampleReplicas replicas = new ExampleReplicas(servers);

    @AfterEach
    void stop() {
        replicas.close();
    }

    private static LeaderElection election(ConfigurableApplicationContext c) {
        return c.getBean(LeaderElections.class).get("example");
    }

    /**
     * A fenced leader write, as an app makes it: in one transaction (here a {@code TransactionTemplate}, in an app as
     * often {@code @Transactional}), so the fence and the write share its connection.
     */
// tag::leader-write[]
    private static LeaderWrite<Long> write(ConfigurableApplicationContext c, LeaderElection election) {
        JdbcTemplate jdbc = c.getBean(JdbcTemplate.class);
        return c.getBean(TransactionTemplate.class).execute(tx -> jdbc.execute((ConnectionCallback<LeaderWrite<Long>>)
                connection -> election.writeAsLeader(connection, c.getBean(PostgresFence.class), epoch -> {
                    jdbc.update("INSERT INTO example_leader_writes (epoch, holder) VALUES (?, ?)", epoch.value(),
                            election.candidate());
                    return epoch.value();
                })));
    }
// end::leader-write[]

    @Test
    void oneLeaderAtATimeAndAStaleEpochIsRejectedByStorage() {
        List<ConfigurableApplicationContext> two = replicas.startAll(List.of("lead-a", "lead-b"),
                "seatlock.leader.groups.example.lease=2s", "seatlock.leader.groups.example.retry=100ms");
        List<Object> granted = new CopyOnWriteArrayList<>();
        two.forEach(c -> c.addApplicationListener((ApplicationListener<PayloadApplicationEvent<?>>) e -> {
            if (e.getPayload() instanceof LeadershipGranted g) {
                granted.add(g);
            }
        }));
        await().atMost(Duration.ofSeconds(10)).until(() -> two.stream().filter(c -> election(c).isLeader()).count() == 1);
        ConfigurableApplicationContext first = two.stream().filter(c -> election(c).isLeader()).findFirst().orElseThrow();
        ConfigurableApplicationContext second = two.get(two.indexOf(first) == 0 ? 1 : 0);
        FencingToken oldEpoch = election(first).epoch().orElseThrow();
        WriteHistory history = new WriteHistory().sequence("ledger");
        WriteHistory.Attempt firstWrite = history.attempt(election(first).candidate(), "ledger", oldEpoch.value());
        LeaderWrite<Long> wrote = write(first, election(first));
        assertThat(wrote.wrote()).isTrue();
        assertThat(wrote.epoch()).contains(oldEpoch);
        assertThat(wrote.value()).contains(oldEpoch.value());
        firstWrite.told(Outcome.CONFIRMED, "written");
        LeaderWrite<Long> follower = write(second, election(second));
        assertThat(follower.wrote()).as("a non-leader writes nothing: %s", follower).isFalse();
        assertThat(follower.epoch()).isEmpty();

        election(first).yieldLeadership();
        await().atMost(Duration.ofSeconds(10)).until(() -> election(second).isLeader() || election(first).isLeader());
        ConfigurableApplicationContext now = election(second).isLeader() ? second : first;
        FencingToken newEpoch = election(now).epoch().orElseThrow();
        assertThat(newEpoch.isNewerThan(oldEpoch)).isTrue();
        WriteHistory.Attempt newWrite = history.attempt(election(now).candidate(), "ledger", newEpoch.value());
        assertThat(write(now, election(now)).value()).contains(newEpoch.value());
        newWrite.told(Outcome.CONFIRMED, "written");
        WriteHistory.Attempt staleWrite = history.attempt(election(first).candidate(), "ledger", oldEpoch.value());

        // The old leader paused after reading its epoch and writes now: storage refuses it.
        JdbcTemplate jdbc = first.getBean(JdbcTemplate.class);
        assertThatThrownBy(() -> first.getBean(TransactionTemplate.class).executeWithoutResult(tx -> jdbc.execute(
                (ConnectionCallback<Void>) c -> {
                    first.getBean(PostgresFence.class).admit(c, election(first).lockName(), oldEpoch);
                    return null;
                }))).isInstanceOf(StaleFencingTokenException.class);
        staleWrite.told(Outcome.REJECTED, "StaleFencingTokenException");
        JdbcTemplate storage = new JdbcTemplate(servers.dataSource());
        history.stored("ledger", storage.query("SELECT holder, epoch FROM example_leader_writes ORDER BY id",
                (rs, i) -> WriteHistory.write(rs.getString(1), rs.getLong(2))).toArray(WriteHistory.Write[]::new));
        history.verify();
        assertThat(new JdbcTemplate(servers.dataSource())
                .queryForList("SELECT epoch FROM example_leader_writes ORDER BY id", Long.class))
                .containsExactly(oldEpoch.value(), newEpoch.value());
        await().atMost(Duration.ofSeconds(5)).until(() -> !granted.isEmpty());
        assertThat(granted).allSatisfy(g -> assertThat(((LeadershipGranted) g).group()).isEqualTo("example"));
    }
}
