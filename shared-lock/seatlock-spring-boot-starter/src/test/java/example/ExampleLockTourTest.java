package example;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/concepts.md's tour of the lock API runs on a real lock and leaves what it says: 14D decided, nothing held. */
class ExampleLockTourTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ExampleLockTourTest");
    private final ExampleReplicas replicas = new ExampleReplicas(servers);

    @AfterEach
    void stop() {
        replicas.close();
    }

    @Test
    void theToursCallsDoWhatItsCommentsSay() throws Exception {
        DistributedLock lock = replicas.start("tour").getBean(DistributedLock.class);
        assertThat(LockTour.tour(lock)).isEqualTo("rebuilt 0");
        assertThat(lock.tryAcquireUnlessDecided("seat:concert:14D", Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE)
                .isDecided()).isTrue();
        assertThat(lock.heldNames("")).isEmpty();
    }
}
