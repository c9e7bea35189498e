package com.example.postgresonly;

import io.seatlock.lock.Fence;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.leader.LeaderWrite;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.sql.SQLException;

/** A user on PostgreSQL alone: the lock, a leader and its fenced writes, all in the application's database. */
@SpringBootApplication
public class PostgresOnlyApplication {

    /** The leader's ledger: each entry written in the epoch the lease fence admitted. */
    @Service
    public static class Ledger {
        private final LeaderElections elections;
        private final Fence fence;
        private final JdbcTemplate jdbc;

        Ledger(LeaderElections elections, Fence fence, JdbcTemplate jdbc) {
            this.elections = elections;
            this.fence = fence;
            this.jdbc = jdbc;
        }

        @Transactional
        public boolean record(String entry) {
            LeaderWrite<Void> write = jdbc.execute((ConnectionCallback<LeaderWrite<Void>>) c -> {
                try {
                    return elections.get("ledger").writeAsLeader(c, fence, epoch -> {
                        jdbc.update("INSERT INTO ledger (epoch, entry) VALUES (?, ?)", epoch.value(), entry);
                        return null;
                    });
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            return write.wrote();
        }
    }
}
