package io.seatlock.jobs.faults;

import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks what jobs and leaders left in PostgreSQL against what their callers were told. */
final class JobsHistoryChecker {

    private JobsHistoryChecker() {
    }

    /** The slot instant of test slot number {@code slot}. */
    static Instant slotTime(long slot) {
        return Instant.ofEpochSecond(1_700_000_000L + slot);
    }

    /**
     * @param capturedPerSlot payments each successful capture call reported, by slot (several calls per slot possible)
     * @param unknownSlots    slots with at least one capture call whose outcome is unknown (it threw)
     * @param acceptedWrites  leader writes whose call returned normally, as "epoch|holder|action"
     * @param rejectedWrites  leader writes that were refused as stale, same form
     */
    static List<String> check(JdbcClient db, Map<Long, List<Integer>> capturedPerSlot, Set<Long> unknownSlots,
                              Set<String> acceptedWrites, Set<String> rejectedWrites) {
        List<String> violations = new ArrayList<>();
        Set<Long> slots = new java.util.TreeSet<>(capturedPerSlot.keySet());
        slots.addAll(unknownSlots);
        long attributed = 0;
        for (long slot : slots) {
            List<Integer> counts = capturedPerSlot.getOrDefault(slot, List.of());
            long runsThatCaptured = counts.stream().filter(c -> c > 0).count();
            if (runsThatCaptured > 1) {
                violations.add("slot " + slot + " captured payments in " + counts + " runs");
            }
            long reported = counts.stream().mapToLong(Integer::longValue).sum();
            long stored = db.sql("SELECT count(*) FROM payments WHERE captured_slot = ?")
                    .params(java.sql.Timestamp.from(slotTime(slot))).query(Long.class).single();
            attributed += stored;
            // A call that reported captures owned the slot; only a slot no call reported may hold an unknown call's.
            boolean unknownMayHaveCaptured = unknownSlots.contains(slot) && runsThatCaptured == 0;
            if (unknownMayHaveCaptured ? stored < reported : stored != reported) {
                violations.add("slot " + slot + ": " + stored + " payments stored as captured, callers were told "
                        + reported + (unknownSlots.contains(slot) ? " (and a call's outcome is unknown)" : ""));
            }
        }
        long captured = db.sql("SELECT count(*) FROM payments WHERE state = 'CAPTURED'").query(Long.class).single();
        if (captured != attributed) {
            violations.add(captured + " payments captured, but only " + attributed + " by a slot of this run");
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
