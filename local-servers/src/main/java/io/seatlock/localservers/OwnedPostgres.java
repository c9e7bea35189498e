package io.seatlock.localservers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A PostgreSQL server process of its own (the embedded binaries from Maven), with a data directory of its own that
 * outlives the process: one test's, so it can be killed and started again, as a crashed database server is, without
 * touching anybody else's. Loopback only; the directory is deleted on close.
 */
public final class OwnedPostgres implements AutoCloseable {

    private final Path dataDirectory;
    private final Map<String, String> settings;
    private final int port;
    private EmbeddedPostgres process;

    /** A server that commits as PostgreSQL does by default: a commit is acknowledged once it is in the log on disk. */
    public OwnedPostgres() throws IOException {
        this(Map.of());
    }

    /**
     * @param settings server settings over that default, e.g. {@code synchronous_commit=off} (the embedded server's
     *                 own default, which a crash shows: commits acknowledged but not yet in the log are gone)
     */
    public OwnedPostgres(Map<String, String> settings) throws IOException {
        this.settings = Map.copyOf(settings);
        this.dataDirectory = Files.createTempDirectory("seatlock-owned-postgres");
        try {
            this.port = LocalServers.onFreePort(free -> {
                process = LocalServers.started(builder(), free);
                return free;
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while starting PostgreSQL");
        }
    }

    public PostgresServer server() {
        return new PostgresServer("owned", "127.0.0.1", port, "postgres", "");
    }

    /**
     * Kills the server and every backend process at once ({@code SIGKILL}), as an out-of-memory killer would: nothing
     * is shut down or flushed by PostgreSQL itself, and every connection breaks. What was committed is in the data
     * directory (the operating system still has it), so {@link #start} recovers it.
     */
    public synchronized void kill() throws IOException {
        long pid = Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim());
        ProcessHandle postmaster = ProcessHandle.of(pid)
                .orElseThrow(() -> new IOException("PostgreSQL (pid " + pid + ") is not running"));
        List<ProcessHandle> all = Stream.concat(postmaster.descendants(), Stream.of(postmaster)).toList();
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle killed : all) {
            try {
                killed.onExit().get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for PostgreSQL to die");
            } catch (ExecutionException | TimeoutException e) {
                throw new IOException("PostgreSQL process " + killed.pid() + " did not die", e);
            }
        }
        try {
            process.close(); // lets go of the data directory; its attempt to stop the dead server only logs
        } catch (IOException e) {
            // the server is gone already, which is what was asked
        }
    }

    /** Starts the server again on the same port and data directory, after {@link #kill}: it recovers from its log. */
    public synchronized void start() throws IOException {
        try {
            process = LocalServers.started(builder(), port);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while starting PostgreSQL");
        }
    }

    private EmbeddedPostgres.Builder builder() {
        EmbeddedPostgres.Builder builder = LocalServers.quietEmbeddedPostgres().setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false).setServerConfig("synchronous_commit", "on");
        settings.forEach(builder::setServerConfig);
        return builder;
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            process.close();
        } finally {
            try (Stream<Path> files = Files.walk(dataDirectory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }
}
