package db.hold;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;

/**
 * A migration that lasts until the test says so, at most two minutes: it connects to the port the system property
 * {@code hold.port} names and waits for the test to write a byte there. The replica that runs it holds the migration
 * gate while the test watches the others wait.
 */
public class V100__Hold_the_gate extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Socket test = new Socket(InetAddress.getLoopbackAddress(), Integer.getInteger("hold.port"))) {
            test.setSoTimeout(120_000);
            InputStream released = test.getInputStream();
            released.read(); // the test's go, or its close
        }
    }
}
