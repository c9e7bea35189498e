package io.seatlock.jobs.faults;

import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks what jobs and leaders left in PostgreSQL against what their callers were told. */
final class JobsHistoryChecker {

    private JobsHistoryChecker() {
    }

    /**
     * @param capturedPerSlot payments each successful capture call reported, by slot (several calls per slot possible)
     * @param acceptedWrites  leader writes whose call returned normally, as "epoch|holder|action"
     * @param rejectedWrites  leader writes that were refused as stale, same form
     */
    static List<String> check(JdbcClient db, Map<Long, List<Integer>> capturedPerSlot, long capturedByUnknownCalls,
                              Set<String> acceptedWrites, Set<String> rejectedWrites) {
        List<String> violations = new ArrayList<>();
        capturedPerSlot.forEach((slot, counts) -> {
            if (counts.stream().filter(c -> c > 0).count() > 1) {
                violations.add("slot " + slot + " captured payments in " + counts + " runs");
            }
        });
        long reported = capturedPerSlot.values().stream().flatMap(List::stream).mapToLong(Integer::longValue).sum();
        long captured = db.sql("SELECT count(*) FROM payments WHERE state = 'CAPTURED'").query(Long.class).single();
        if (captured < reported || captured > reported + capturedByUnknownCalls) {
            violations.add(captured + " payments captured, but callers were told " + reported
                    + " (plus at most " + capturedByUnknownCalls + " from calls with unknown outcome)");
        }
        long doubleSlots = db.sql("SELECT count(*) FROM (SELECT 1 FROM job_runs GROUP BY job_name, slot HAVING count(*) > 1) d")
                .query(Long.class).single();
        if (doubleSlots > 0) {
            violations.add(doubleSlots + " job slots recorded more than once");
        }
        violations.addAll(checkLeaderWrites(db, acceptedWrites, rejectedWrites));
        return violations;
    }

    /** Fenced leader writes: never an older epoch after a newer one (per group), one holder per epoch. */
    static List<String> checkLeaderWrites(JdbcClient db, Set<String> acceptedWrites, Set<String> rejectedWrites) {
        List<String> violations = new ArrayList<>();
        long regressions = db.sql("""
                        SELECT count(*) FROM leader_actions a
                        WHERE a.epoch < (SELECT max(b.epoch) FROM leader_actions b
                                         WHERE b.group_name = a.group_name AND b.id < a.id)""")
                .query(Long.class).single();
        if (regressions > 0) {
            violations.add(regressions + " leader write(s) accepted with an older epoch than one accepted before");
        }
        long sharedEpochs = db.sql("SELECT count(*) FROM (SELECT epoch FROM leader_actions GROUP BY group_name, epoch "
                + "HAVING count(DISTINCT holder) > 1) e").query(Long.class).single();
        if (sharedEpochs > 0) {
            violations.add(sharedEpochs + " epoch(s) with writes from more than one holder");
        }
        List<String> stored = db.sql("SELECT epoch || '|' || holder || '|' || action FROM leader_actions")
                .query(String.class).list();
        for (String write : acceptedWrites) {
            if (!stored.contains(write)) {
                violations.add("accepted leader write " + write + " is missing");
            }
        }
        for (String write : rejectedWrites) {
            if (stored.contains(write)) {
                violations.add("rejected leader write " + write + " was stored anyway");
            }
        }
        return violations;
    }
}
