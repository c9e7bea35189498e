package com.example.ownwrites;

import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.Fence;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.leader.LeaderElection;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** A leader's ledger: each leader writes with its epoch; the fence refuses an older one. */
@Service
public class Ledger {

    public static final String BEFORE_WRITE = "ledger-write";

    private final Fence fence;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    Ledger(Fence fence, JdbcTemplate jdbc, TransactionTemplate transactions) {
        this.fence = fence;
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /** Writes as the leader of {@code election} in {@code epoch}, read earlier; throws if storage refuses it. */
    public void write(LeaderElection election, FencingToken epoch, boolean guarded) {
        Checkpoint.reach(BEFORE_WRITE);
        transactions.executeWithoutResult(tx -> jdbc.execute((ConnectionCallback<Void>) c -> {
            if (guarded) {
                fence.admit(c, election.lockName(), epoch);
            }
            jdbc.update("INSERT INTO ledger (epoch, leader) VALUES (?, ?)", epoch.value(), election.candidate());
            return null;
        }));
    }
}
