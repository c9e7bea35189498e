package io.seatlock.lock.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.LockLease;
import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * Micrometer Observations of a lock, for traces and metrics from one instrumentation:
 * <ul>
 *   <li>{@value #ACQUIRE}: each {@code tryAcquire}, {@code tryAcquireUnlessDecided} and waiting {@code acquire}, as long
 *   as the call takes (the wait), with its outcome; inside a request it is a child span of the request's;</li>
 *   <li>{@value #LEASE}: each lease this replica holds, a long task from its grant to its release or loss;</li>
 *   <li>{@value #RENEWAL_FAILED}, {@value #FENCING_REJECTED}: each renewal that failed (the store did not answer) and
 *   each write a fence refused, on the thread that heard it (a refused write: the writer's, inside its request).</li>
 * </ul>
 * Low-cardinality keys: {@value #GROUP} (the lock name up to its first {@code :}, within the {@link LockGroups} cap
 * the metrics share), {@value #IMPACT}, {@value #MODE}, {@value #OUTCOME}; the full name ({@value #NAME}) and the
 * fencing token ({@value #TOKEN}) only as high-cardinality keys, so a per-seat lock adds no meter per seat. A
 * {@link LockObservationConvention} names and tags them ({@link DefaultLockObservationConvention} unless given one).
 *
 * <p>Give the lock {@link #listener()} when you make it and use {@link #wrap} of it:
 * {@code LockObservations o = new LockObservations(registry); DistributedLock lock = o.wrap(RedisLockClient.over(
 * transport, settings, o.listener()));} (the Spring Boot starter does both when the application has an
 * {@link ObservationRegistry}). With a registry that has no handler, the wrapped lock adds a check per call and
 * nothing else.
 */
public final class LockObservations {

    /** An acquire call: try, try unless decided, or wait. */
    public static final String ACQUIRE = "seatlock.lock.acquire";
    /** A lease held by this replica, from grant to release or loss. */
    public static final String LEASE = "seatlock.lease";
    /** A background renewal the lock's store did not answer. */
    public static final String RENEWAL_FAILED = "seatlock.lease.renewal.failed";
    /** A write a fence refused. */
    public static final String FENCING_REJECTED = "seatlock.fencing.rejected";

    /** Key: the lock's group, the name up to its first {@code :}. */
    public static final String GROUP = "seatlock.lock.group";
    /** Key: what breaks if two holders overlap. */
    public static final String IMPACT = "seatlock.lock.impact";
    /** Key: {@code try}, {@code unless-decided} or {@code wait}. */
    public static final String MODE = "seatlock.lock.mode";
    /**
     * Key: how it ended: for an acquire {@code acquired}, {@code busy}, {@code decided}, {@code late} (granted after
     * its own deadline and taken back), {@code not-acquired} (a wait that ran out), {@code unavailable},
     * {@code interrupted} or {@code error}; for a lease {@code released}, {@code lost} or {@code unknown} (its release
     * got no answer).
     */
    public static final String OUTCOME = "seatlock.outcome";
    /** High-cardinality key: the full lock name (a fence's resource). */
    public static final String NAME = "seatlock.lock.name";
    /** High-cardinality key: the lease's fencing token. */
    public static final String TOKEN = "seatlock.lock.fencing-token";

    private final ObservationRegistry registry;
    private final LockGroups groups;
    private final LockObservationConvention convention;
    private final boolean custom;
    /** Set by the lock's listener when a grant on this thread came too late; read by the acquire that asked. */
    private final ThreadLocal<Boolean> lateGrant = new ThreadLocal<>();
    private final LockListener listener = new Listener();

    /**
     * Observations on {@code registry}, named and tagged by {@link DefaultLockObservationConvention}, groups capped at
     * {@link LockGroups#DEFAULT_MAX}.
     *
     * @param registry where observations go
     */
    public LockObservations(ObservationRegistry registry) {
        this(registry, new LockGroups(), null);
    }

    /**
     * Observations on {@code registry}.
     *
     * @param registry   where observations go
     * @param groups     the group cap, shared with the lock's metrics so that both tag the same groups
     * @param convention names and tags them; null for {@link DefaultLockObservationConvention}
     */
    public LockObservations(ObservationRegistry registry, LockGroups groups,
                            @Nullable LockObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.groups = Objects.requireNonNull(groups, "groups");
        this.custom = convention != null;
        this.convention = convention != null ? convention : DEFAULT_CONVENTION;
    }

    /**
     * The listener to give the lock when it is made: it observes failed renewals and fencing rejections, and tells
     * {@link #wrap} of a late grant. Guarded like any listener.
     *
     * @return the listener
     */
    public LockListener listener() {
        return listener;
    }

    /**
     * {@code lock}, observed.
     *
     * @param lock the lock, made with {@link #listener()} among its listeners
     * @return the observed lock
     */
    public DistributedLock wrap(DistributedLock lock) {
        return new ObservedLock(Objects.requireNonNull(lock, "lock"), this);
    }

    ObservationRegistry registry() {
        return registry;
    }

    /** Whether a grant of the call that just ended on this thread came too late; clears the mark. */
    boolean tookLateGrant() {
        boolean late = Boolean.TRUE.equals(lateGrant.get());
        lateGrant.remove();
        return late;
    }

    Observation acquire(String name, OverlapImpact impact, String mode) {
        Objects.requireNonNull(impact, "impact"); // an acquire's keys are the same for every call
        return observation(new LockObservationContext(LockObservationContext.Kind.ACQUIRE, name, groups.tagOfName(name),
                impact, mode, null));
    }

    Observation lease(String name, LockLease lease) {
        return observation(new LockObservationContext(LockObservationContext.Kind.LEASE, name, groups.tagOfName(name),
                lease.impact(), null, lease.fencingToken().value()));
    }

    /** Sets how an observation of the lock ended, for its convention to tag at its stop. */
    static void outcome(Observation observation, String outcome) {
        ((LockObservationContext) observation.getContext()).outcome(outcome);
    }

    private Observation observation(LockObservationContext context) {
        context.setName(convention.getName(context.kind()));
        return Observation.createNotStarted(custom ? convention : null, DEFAULT_CONVENTION, () -> context, registry);
    }

    /** The default convention, which a custom one and the registry's global ones override. */
    private static final LockObservationConvention DEFAULT_CONVENTION = new DefaultLockObservationConvention();

    private final class Listener implements LockListener {
        @Override
        public void onLateGrant(String group) {
            lateGrant.set(Boolean.TRUE);
        }

        @Override
        public void onRenewalFailed(String group) {
            observation(new LockObservationContext(LockObservationContext.Kind.RENEWAL_FAILED, "", groups.tagOf(group),
                    null, null, null)).observe(() -> { });
        }

        @Override
        public void onFencingRejected(String resource) {
            observation(new LockObservationContext(LockObservationContext.Kind.FENCING_REJECTED, resource,
                    groups.tagOfName(resource), null, null, null)).observe(() -> { });
        }
    }
}
