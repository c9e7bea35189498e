package io.seatlock.test;

import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.spi.CheckpointHandlers;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.awaitility.Awaitility.await;

/**
 * A JUnit 5 extension that holds a lock holder at a {@link Checkpoint} until the test opens it: the 14C
 * story in a test of your own.
 *
 * <pre>{@code
 * @RegisterExtension
 * final Pauses pauses = new Pauses();
 *
 * Pause beforeWrite = pauses.holdFirst("seat-write");   // the first thread to reach it stops there
 * CompletableFuture<Outcome> a = supplyAsync(() -> book("14C", "lena"));
 * beforeWrite.awaitArrival();                           // A holds the lock and stands before its write
 * Pauses.awaitExpired(lock, "seat:14C");                // its lease really ran out in the lock's store
 * book("14C", "omar");                                  // B passes the checkpoint and books
 * beforeWrite.open();                                   // A wakes and writes: your storage must refuse it
 * }</pre>
 *
 * After each test (or on {@link #close()}) every pause is opened and the handler removed, so no thread stays held.
 */
public final class Pauses implements AfterEachCallback, AutoCloseable {

    /** How long the waits of this kit wait at most unless told otherwise; generous for a busy machine. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

    private final Map<String, Pause> pauses = new ConcurrentHashMap<>();
    private volatile @Nullable AutoCloseable registration;

    /** Makes the extension; it installs nothing until a pause is asked for. */
    public Pauses() {
    }

    /**
     * Holds the first thread that reaches {@code checkpoint} from now on; later threads pass.
     *
     * @param checkpoint the name given to {@link Checkpoint#reach}
     * @return the pause, to await the arrival and to open
     */
    public Pause holdFirst(String checkpoint) {
        install();
        Pause pause = new Pause(checkpoint);
        if (pauses.putIfAbsent(checkpoint, pause) != null) {
            throw new IllegalStateException("checkpoint '" + checkpoint + "' is already held");
        }
        return pause;
    }

    /**
     * Waits until the lock has no holder of {@code name} any more in its store (the lease ran out there, not
     * only on a local clock): the moment a paused holder has silently lost its lock.
     *
     * @param lock the lock the holder used
     * @param name the lock's name
     */
    public static void awaitExpired(DistributedLock lock, String name) {
        await("lock '" + name + "' to expire").atMost(DEFAULT_WAIT).pollInterval(Duration.ofMillis(10))
                .until(() -> lock.remainingTtl(name).isEmpty());
    }

    private synchronized void install() {
        if (registration == null) {
            registration = CheckpointHandlers.install(name -> {
                Pause pause = pauses.get(name);
                if (pause != null) {
                    pause.arrive();
                }
            });
        }
    }

    /**
     * Opens every pause after each test.
     *
     * @param context the test's context
     */
    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** Opens every pause and removes the handler; for use outside JUnit (a demo, a main method). */
    @Override
    public void close() {
        pauses.values().forEach(Pause::open);
        pauses.clear();
        synchronized (this) {
            AutoCloseable installed = registration;
            registration = null;
            if (installed != null) {
                try {
                    installed.close();
                } catch (Exception e) {
                    throw new IllegalStateException("could not remove the checkpoint handler", e);
                }
            }
        }
    }
}
