package io.seatlock.jobs;

import io.seatlock.lock.Fence;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.leader.LeaderElection;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A leader that read its epoch, paused, and writes now, whatever has happened since: the fenced write of
 * {@code LeaderLedger}, with the epoch the test gives instead of the election's current one.
 */
public final class PausedLeader {

    private PausedLeader() {
    }

    /** Writes {@code action} to {@code leader_actions} under {@code epoch}, through the replica's fence. */
    public static void write(ApplicationContext replica, String group, FencingToken epoch, String holder, String action) {
        JdbcTemplate jdbc = replica.getBean(JdbcTemplate.class);
        Fence fence = replica.getBean(Fence.class);
        replica.getBean(TransactionTemplate.class).executeWithoutResult(tx -> jdbc.execute((ConnectionCallback<Void>) c -> {
            fence.admit(c, LeaderElection.lockNameOf(group), epoch);
            jdbc.update("INSERT INTO leader_actions (group_name, epoch, holder, action) VALUES (?, ?, ?, ?)", group,
                    epoch.value(), holder, action);
            return null;
        }));
    }
}
