package io.seatlock.localservers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Embedded PostgreSQL and Redis for development runs, on fixed ports (55432 and 56379 unless
 * {@code SEATLOCK_DEV_POSTGRES_PORT} / {@code SEATLOCK_DEV_REDIS_PORT} say otherwise) in a process of their
 * own, so that every replica started on this machine uses the same two servers. Each run registers its
 * process id; the servers stop by themselves a few seconds after the last registered run has exited, so
 * they outlive no run and no run loses them while it lives. Their process runs in a session of its own
 * ({@code setsid}): Ctrl-C in the terminal of the run that started them reaches that run's process group
 * only, so the other runs keep their servers.
 */
public final class SharedDevServers {

    private static final Logger log = LoggerFactory.getLogger(SharedDevServers.class);
    static final int POSTGRES_PORT = Integer.parseInt(LocalServers.setting("dev.postgres.port", "55432"));
    static final int REDIS_PORT = Integer.parseInt(LocalServers.setting("dev.redis.port", "56379"));
    /** How long the servers wait, once no run is alive, before they stop (a restarted run finds them still up). */
    static final int LINGER_SECONDS = Integer.parseInt(LocalServers.setting("dev.linger-seconds", "10"));
    private static final List<Path> SETSID = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));

    private SharedDevServers() {
    }

    static PostgresServer postgres() {
        return new PostgresServer("shared development (embedded)", "127.0.0.1", POSTGRES_PORT, "postgres", "");
    }

    static RedisServer redis() {
        return new RedisServer("shared development (embedded)", "127.0.0.1", REDIS_PORT, null);
    }

    private static Path home() {
        return Path.of(System.getProperty("java.io.tmpdir"), "seatlock-dev-servers-" + POSTGRES_PORT + "-" + REDIS_PORT);
    }

    /** Registers this process as a user and starts the servers unless a sibling run already has. */
    static synchronized void join() {
        try {
            Path users = Files.createDirectories(home().resolve("users"));
            Path me = users.resolve(Long.toString(ProcessHandle.current().pid()));
            Files.writeString(me, "");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Files.deleteIfExists(me);
                } catch (IOException ignored) {
                    // the servers' own check drops dead users too
                }
            }, "seatlock-dev-servers-leave"));
            try (FileChannel channel = FileChannel.open(home().resolve("start.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock ignored = channel.lock()) {
                if (!up()) {
                    start();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean up() {
        return LocalServers.answers(postgres()) && LocalServers.answers(redis());
    }

    private static void start() throws IOException {
        Path output = home().resolve("servers.log");
        List<String> command = new ArrayList<>();
        SETSID.stream().filter(Files::isExecutable).findFirst().ifPresentOrElse(setsid -> command.add(setsid.toString()),
                () -> log.warn("No setsid on this machine: the development servers share this run's process group, "
                        + "so Ctrl-C here stops them for every other run too."));
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-Dseatlock.dev.postgres.port=" + POSTGRES_PORT, "-Dseatlock.dev.redis.port=" + REDIS_PORT,
                "-Dseatlock.dev.linger-seconds=" + LINGER_SECONDS,
                "-cp", System.getProperty("java.class.path"), SharedDevServers.class.getName()));
        Process servers = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!up()) {
            if (!servers.isAlive()) { // a port taken by another server, say: at once, not after the deadline
                throw new IllegalStateException("development servers did not start (their process exited with "
                        + servers.exitValue() + "; another server on port " + POSTGRES_PORT + " or " + REDIS_PORT
                        + "? SEATLOCK_DEV_POSTGRES_PORT and SEATLOCK_DEV_REDIS_PORT choose others); see " + output);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("development servers did not start; see " + output);
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting development servers", e);
            }
        }
    }

    /** The servers' own process: runs them until no registered run has been alive for a while. */
    public static void main(String[] args) throws Exception {
        // fails where another PostgreSQL has the port, rather than taking that one for its own
        EmbeddedPostgres pg = LocalServers.embeddedPostgresOn(POSTGRES_PORT);
        redis.embedded.RedisServer redisProcess = redis.embedded.RedisServer.newRedisServer().port(REDIS_PORT)
                .setting("bind 127.0.0.1").setting("save \"\"").setting("appendonly no").build();
        redisProcess.start();
        System.out.println("development servers up: PostgreSQL on " + POSTGRES_PORT + ", Redis on " + REDIS_PORT);
        long idleSince = System.currentTimeMillis();
        while (true) {
            if (liveUsers() > 0) {
                idleSince = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - idleSince > TimeUnit.SECONDS.toMillis(LINGER_SECONDS)) {
                break;
            }
            Thread.sleep(1000);
        }
        System.out.println("no run uses the development servers any more; stopping them");
        redisProcess.stop();
        pg.close();
    }

    private static int liveUsers() throws IOException {
        Path users = Files.createDirectories(home().resolve("users"));
        int alive = 0;
        try (var entries = Files.list(users)) {
            for (Path user : entries.toList()) {
                long pid = Long.parseLong(user.getFileName().toString());
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    alive++;
                } else {
                    Files.deleteIfExists(user);
                }
            }
        }
        return alive;
    }
}
