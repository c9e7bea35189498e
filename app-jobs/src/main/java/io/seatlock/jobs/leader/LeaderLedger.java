package io.seatlock.jobs.leader;

import io.seatlock.lock.Fence;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.leader.LeaderElection;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Leader-only writes, each carrying its epoch, admitted by the library's fence in the same transaction: on Redis the
 * token fence (a write from an older epoch than the newest accepted one is refused), on PostgreSQL the lease fence (a
 * write whose term is no longer current is refused, even before a newer leader writes). Either way a refused write
 * fails with {@link io.seatlock.lock.StaleFencingTokenException} and leaves nothing behind.
 */
@Component
public class LeaderLedger {

    private final JdbcTemplate jdbc;
    private final Fence fence;

    LeaderLedger(JdbcTemplate jdbc, Fence fence) {
        this.jdbc = jdbc;
        this.fence = fence;
    }

    /** Records {@code action} if {@code election} leads now (the library's fenced write); false if it does not. */
    @Transactional
    public boolean record(LeaderElection election, String action) {
        return jdbc.execute((ConnectionCallback<Boolean>) c -> election.writeAsLeader(c, fence,
                epoch -> insert(election.group(), epoch, election.candidate(), action)).wrote());
    }

    private boolean insert(String group, FencingToken epoch, String holder, String action) {
        return jdbc.update("INSERT INTO leader_actions (group_name, epoch, holder, action) VALUES (?, ?, ?, ?)", group,
                epoch.value(), holder, action) == 1;
    }
}
