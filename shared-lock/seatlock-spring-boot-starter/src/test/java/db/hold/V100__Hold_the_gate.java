package db.hold;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A migration that lasts until the test says so (a file it names in the system property {@code hold.file} appears),
 * at most two minutes: the replica that runs it holds the migration gate while the test watches the others wait.
 */
public class V100__Hold_the_gate extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        Path release = Path.of(System.getProperty("hold.file"));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!Files.exists(release) && System.nanoTime() < deadline) {
            Thread.sleep(50); // the test's own event: a file it writes, polled
        }
    }
}
