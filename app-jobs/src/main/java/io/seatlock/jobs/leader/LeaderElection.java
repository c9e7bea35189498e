package io.seatlock.jobs.leader;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;

/**
 * Leader election on the shared lock: the leader holds {@code leader:<group>} with a renewed lease;
 * its epoch is the grant's fencing token. Leadership is revoked when a renewal finds the lock lost or
 * renewals keep failing until the local deadline is near, so before another candidate can take it.
 * That still does not stop a paused leader from writing late: leader writes carry the epoch and
 * storage rejects older ones ({@link LeaderLedger}).
 */
public class LeaderElection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

    private final DistributedLock lock;
    private final String group;
    private final String candidate;
    private final Duration lease;
    private final Duration retry;
    private final Candidate callbacks;
    private final Thread loop;
    private volatile LockLease current;
    private volatile boolean running = true;

    public LeaderElection(DistributedLock lock, String group, String candidate, Duration lease, Duration retry,
                          Candidate callbacks) {
        if (retry.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("retry " + retry + " must be shorter than the lease " + lease);
        }
        this.lock = lock;
        this.group = group;
        this.candidate = candidate;
        this.lease = lease;
        this.retry = retry;
        this.callbacks = callbacks;
        this.loop = new Thread(this::campaign, "leader-election-" + group + "-" + candidate);
        this.loop.setDaemon(true);
        this.loop.start();
    }

    public String lockName() {
        return "leader:" + group;
    }

    public boolean isLeader() {
        LockLease l = current;
        return l != null && l.isValid();
    }

    /** The epoch of this candidate's current term, if it leads now. */
    public Optional<FencingToken> epoch() {
        LockLease l = current;
        return l != null && l.isValid() ? Optional.of(l.fencingToken()) : Optional.empty();
    }

    public Duration remainingLease() {
        LockLease l = current;
        return l == null ? Duration.ZERO : l.validFor();
    }

    public String candidate() {
        return candidate;
    }

    /** Gives leadership up now (others may take it at once); this candidate campaigns again after a retry. */
    public synchronized void yieldLeadership() {
        LockLease l = current;
        if (l != null) {
            l.close();
            revoke(l);
        }
    }

    private void campaign() {
        while (running) {
            try {
                if (current == null) {
                    lock.tryAcquire(lockName(), lease, OverlapImpact.BROKEN_PROMISE).ifPresent(this::grant);
                } else if (!current.isValid()) {
                    revoke(current);
                }
                Thread.sleep(retry.toMillis());
            } catch (LockUnavailableException e) {
                log.debug("election {}: Redis unavailable: {}", group, e.getMessage());
                sleepQuietly();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void grant(LockLease granted) {
        current = granted;
        granted.keepAlive(() -> revoke(granted));
        log.info("{} leads {} in epoch {}", candidate, group, granted.fencingToken());
        callbacks.onGranted(granted.fencingToken());
    }

    private synchronized void revoke(LockLease ended) {
        if (current != ended) {
            return;
        }
        current = null;
        log.info("{} no longer leads {} (epoch {})", candidate, group, ended.fencingToken());
        callbacks.onRevoked(ended.fencingToken());
    }

    private void sleepQuietly() {
        try {
            Thread.sleep(retry.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public void close() {
        running = false;
        loop.interrupt();
        yieldLeadership();
    }
}
