package io.seatlock.lock.postgres;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The events an operator acts on are logged once each with key/value fields, which Spring Boot's structured logging
 * writes as JSON fields (here its Logstash encoder, as {@code logging.structured.format.console=logstash} would):
 * a lease lost, a write refused by the fence, a leader granted and revoked. An ordinary acquire logs nothing.
 */
class StructuredLogTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("StructuredLogTest");

    private final PostgresLocks locks = new PostgresLocks();
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private AppenderBase<ILoggingEvent> appender;
    private PostgresLock lock;

    @BeforeAll
    static void createTable() throws Exception {
        try (PostgresLocks setup = new PostgresLocks()) {
            setup.lock(setup.pool(servers), PostgresLockSettings.defaults(), LockListener.NOOP).createTable();
        }
    }

    @BeforeEach
    void capture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.putObject(Environment.class.getName(), new StandardEnvironment());
        StructuredLogEncoder encoder = new StructuredLogEncoder();
        encoder.setContext(context);
        encoder.setFormat("logstash");
        encoder.start();
        appender = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                if (event.getLoggerName().startsWith("io.seatlock")) {
                    lines.add(new String(encoder.encode(event), StandardCharsets.UTF_8));
                }
            }
        };
        appender.setContext(context);
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
        lock = locks.lock(locks.pool(servers), PostgresLockSettings.defaults().withInstanceId("logs"), LockListener.NOOP);
    }

    @AfterEach
    void stop() throws Exception {
        ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(appender);
        locks.close();
    }

    @Test
    void aLostLeaseIsOneLineWithItsNameTokenAndReason() throws Exception {
        lock.tryAcquire("quiet", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow().release();
        assertThat(lines).as("nothing per ordinary acquire").isEmpty();

        LockLease lease = lock.tryAcquire("job:nightly", Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        execute("DELETE FROM seatlock.leases WHERE name = 'job:nightly'");
        assertThat(lease.renew()).isFalse();

        assertThat(lines).singleElement().satisfies(line -> assertThat(line)
                .contains("\"seatlock.event\":\"lease-lost\"", "\"seatlock.lock.name\":\"job:nightly\"",
                        "\"seatlock.lock.fencing-token\":" + lease.fencingToken().value(),
                        "\"seatlock.reason\":\"a renewal found it taken or expired\"", "\"level\":\"WARN\""));
    }

    @Test
    void aRefusedWriteIsOneLineNamingTheLockAndTheToken() throws Exception {
        PostgresLeaseFence fence = new PostgresLeaseFence(PostgresLockSettings.defaults(), LockListener.NOOP);
        LockLease lease = lock.tryAcquire("seat:9F", Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        lease.release();
        try (Connection c = servers.dataSource().getConnection()) {
            c.setAutoCommit(false);
            assertThatThrownBy(() -> fence.admit(c, lease)).isInstanceOf(StaleFencingTokenException.class);
            c.rollback();
        }
        assertThat(lines).singleElement().satisfies(line -> assertThat(line)
                .contains("\"seatlock.event\":\"fencing-rejected\"", "\"seatlock.lock.name\":\"seat:9F\"",
                        "\"seatlock.lock.fencing-token\":" + lease.fencingToken().value()));
    }

    @Test
    void aLeaderChangeIsALineForTheGrantAndOneForTheRevocation() {
        LeaderElection election = LeaderElection.forGroup(lock, "ledger").candidate("logs")
                .lease(Duration.ofSeconds(3)).retry(Duration.ofMillis(100)).build(new Candidate() {
                    @Override
                    public void onGranted(FencingToken epoch) {
                    }

                    @Override
                    public void onRevoked(FencingToken epoch) {
                    }
                });
        election.start();
        await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
        long epoch = election.epoch().orElseThrow().value();
        election.close();

        assertThat(lines).filteredOn(line -> line.contains("\"seatlock.event\":\"leader-"))
                .satisfiesExactly(
                        granted -> assertThat(granted).contains("\"seatlock.event\":\"leader-granted\"",
                                "\"seatlock.leader.group\":\"ledger\"", "\"seatlock.leader.epoch\":" + epoch),
                        revoked -> assertThat(revoked).contains("\"seatlock.event\":\"leader-revoked\"",
                                "\"seatlock.leader.candidate\":\"logs\""));
    }

    private static void execute(String sql) throws Exception {
        try (Connection c = servers.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
