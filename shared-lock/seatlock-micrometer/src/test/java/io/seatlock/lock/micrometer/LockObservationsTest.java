package io.seatlock.lock.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.test.InMemoryLock;
import io.seatlock.test.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What an observed lock records: each acquire with its outcome, each lease from grant to end, the listener's events. */
class LockObservationsTest {

    private static final Duration TTL = Duration.ofSeconds(10);
    private final TestObservationRegistry registry = TestObservationRegistry.create();
    /** Contexts in the order their observations stopped. */
    private final List<Observation.Context> stopped = new java.util.concurrent.CopyOnWriteArrayList<>();

    {
        registry.observationConfig().observationHandler(new io.micrometer.observation.ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
    }

    private final LockObservations observations = new LockObservations(registry);
    private final ManualClock clock = new ManualClock();
    private final InMemoryLock memory = new InMemoryLock(clock, "a");
    private final DistributedLock lock = observations.wrap(memory);
    private final DistributedLock other = observations.wrap(memory.replica("b"));

    @Test
    void anAcquireIsAChildOfTheCurrentObservationTaggedByGroupWithTheNameOnlyAsHighCardinality() {
        Observation request = Observation.start("http.server.requests", registry);
        try (Observation.Scope ignored = request.openScope()) {
            lock.tryAcquire("seat:14C", TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow().release();
        } finally {
            request.stop();
        }
        assertThat(registry).hasObservationWithNameEqualTo(LockObservations.ACQUIRE).that()
                .hasContextualNameEqualTo("seatlock acquire seat")
                .hasLowCardinalityKeyValue(LockObservations.GROUP, "seat")
                .hasLowCardinalityKeyValue(LockObservations.IMPACT, "BROKEN_PROMISE")
                .hasLowCardinalityKeyValue(LockObservations.MODE, "try")
                .hasLowCardinalityKeyValue(LockObservations.OUTCOME, "acquired")
                .doesNotHaveLowCardinalityKeyValueWithKey(LockObservations.NAME)
                .hasHighCardinalityKeyValue(LockObservations.NAME, "seat:14C")
                .hasParentObservationContextMatching(parent -> parent.getName().equals("http.server.requests"))
                .hasBeenStopped();
    }

    @Test
    void eachOutcomeIsNamed() throws Exception {
        LockLease held = lock.tryAcquire("job:report", TTL, OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(other.tryAcquire("job:report", TTL, OverlapImpact.WASTED_WORK)).isEmpty();
        assertThatThrownBy(() -> other.acquire("job:report", TTL, OverlapImpact.WASTED_WORK, Duration.ZERO))
                .isInstanceOf(LockNotAcquiredException.class);
        held.releaseDecided(Duration.ofMinutes(1));
        AcquireAttempt decided = other.tryAcquireUnlessDecided("job:report", TTL, OverlapImpact.WASTED_WORK);
        assertThat(decided.isDecided()).isTrue();

        assertThat(outcomes()).containsExactly("acquired", "busy", "not-acquired", "decided");
    }

    /** The wrapper hands a wait in order of arrival to the lock underneath, observed as a wait. */
    @Test
    void anAcquireInOrderIsTheLocksOwnAndObservedAsAWait() throws Exception {
        LockLease held = lock.acquireInOrder("job:ordered", TTL, OverlapImpact.WASTED_WORK, Duration.ZERO);
        assertThatThrownBy(() -> other.acquireInOrder("job:ordered", TTL, OverlapImpact.WASTED_WORK, Duration.ZERO))
                .isInstanceOf(LockNotAcquiredException.class);
        held.release();
        assertThat(outcomes()).containsExactly("acquired", "not-acquired");
        assertThat(registry).hasObservationWithNameEqualTo(LockObservations.ACQUIRE).that()
                .hasLowCardinalityKeyValue(LockObservations.MODE, "wait");
    }

    @Test
    void aLateGrantAndAnUnansweredCallAreToldApartFromABusyLock() {
        DistributedLock late = observations.wrap(new Refusing(() -> {
            observations.listener().onLateGrant("job");
            return Optional.empty();
        }));
        DistributedLock down = observations.wrap(new Refusing(() -> {
            throw new LockUnavailableException("the store did not answer", null);
        }));
        assertThat(late.tryAcquire("job:1", TTL, OverlapImpact.WASTED_WORK)).isEmpty();
        assertThatThrownBy(() -> down.tryAcquire("job:1", TTL, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class);
        assertThat(lock.tryAcquire("job:1", TTL, OverlapImpact.WASTED_WORK)).isPresent();
        assertThat(other.tryAcquire("job:1", TTL, OverlapImpact.WASTED_WORK)).isEmpty();

        assertThat(outcomes()).containsExactly("late", "unavailable", "acquired", "busy");
        assertThat(stopped).filteredOn(c -> c.getName().equals(LockObservations.ACQUIRE))
                .extracting(c -> c.getError() == null ? "none" : c.getError().getClass().getSimpleName())
                .containsExactly("none", "LockUnavailableException", "none", "none");
    }

    @Test
    void aLeaseIsObservedFromGrantToReleaseOrLoss() {
        LockLease released = lock.tryAcquire("seat:1A", TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        assertThat(registry).hasObservationWithNameEqualTo(LockObservations.LEASE).that().isNotStopped()
                .hasHighCardinalityKeyValue(LockObservations.TOKEN, Long.toString(released.fencingToken().value()));
        assertThat(released.release()).isEqualTo(ReleaseOutcome.RELEASED);

        LockLease lost = lock.tryAcquire("seat:1B", TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        memory.takeAway("seat:1B");
        assertThat(lost.renew()).isFalse();
        lost.release();

        List<String> leaseOutcomes = stopped.stream().filter(c -> c.getName().equals(LockObservations.LEASE))
                .map(c -> c.getLowCardinalityKeyValue(LockObservations.OUTCOME).getValue()).toList();
        assertThat(leaseOutcomes).containsExactly("released", "lost");
    }

    @Test
    void theListenerObservesFailedRenewalsAndFencingRejections() {
        observations.listener().onRenewalFailed("leader");
        observations.listener().onFencingRejected("seat:14C");
        assertThat(registry).hasObservationWithNameEqualTo(LockObservations.RENEWAL_FAILED).that()
                .hasLowCardinalityKeyValue(LockObservations.GROUP, "leader").hasBeenStopped();
        assertThat(registry).hasObservationWithNameEqualTo(LockObservations.FENCING_REJECTED).that()
                .hasLowCardinalityKeyValue(LockObservations.GROUP, "seat")
                .hasHighCardinalityKeyValue(LockObservations.NAME, "seat:14C");
    }

    @Test
    void withoutAHandlerTheLockAndItsLeasesAreTheLocksOwn() {
        DistributedLock quiet = new LockObservations(ObservationRegistry.create()).wrap(memory);
        LockLease lease = quiet.tryAcquire("quiet", TTL, OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(lease).isNotInstanceOf(ObservedLease.class);
        lease.release();
    }

    private List<String> outcomes() {
        return stopped.stream().filter(c -> c.getName().equals(LockObservations.ACQUIRE))
                .map(c -> c.getLowCardinalityKeyValue(LockObservations.OUTCOME).getValue()).toList();
    }

    /** A lock whose every try answers as {@code answer} says. */
    private record Refusing(java.util.function.Supplier<Optional<LockLease>> answer) implements DistributedLock {
        @Override
        public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
            return answer.get();
        }

        @Override
        public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<Duration> remainingTtl(String name) {
            return Optional.empty();
        }

        @Override
        public Optional<String> holder(String name) {
            return Optional.empty();
        }

        @Override
        public Set<String> heldNames(String namePrefix) {
            return Set.of();
        }

        @Override
        public Set<String> held(Collection<String> names) {
            return Set.of();
        }
    }
}
