package io.seatlock.localservers;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fallback a fresh machine uses (no local servers, no Docker): embedded PostgreSQL and Redis from
 * Maven packages start, answer, and take a database and keys. Run here on every build, so the path
 * stays proven even where local servers exist.
 */
class EmbeddedServersTest {

    @Test
    void embeddedPostgresStartsAndTakesADatabase() throws Exception {
        PostgresServer pg = LocalServers.embeddedPostgres();
        assertThat(pg).isNotNull();
        assertThat(pg.source()).isEqualTo("embedded");
        assertThat(pg.port()).as("a port picked below the system's range for connections (FreePortTest), where "
                + "no connection can take it before PostgreSQL binds it").isLessThan(LocalServers.ephemeralPortsFrom());
        pg.ensureDatabase("embedded_check");
        try (Connection c = pg.connect("embedded_check"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id int PRIMARY KEY)");
            s.execute("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING");
            ResultSet rs = s.executeQuery("SELECT count(*) FROM t");
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
        pg.dropDatabase("embedded_check");
    }

    @Test
    void embeddedRedisStartsAndRunsScripts() {
        RedisServer redis = LocalServers.embeddedRedis();
        assertThat(redis).isNotNull();
        String reply = redis.with(r -> r.set("embedded:k", "v"));
        assertThat(reply).isEqualTo("OK");
        Long fromScript = redis.with(r -> r.eval("return redis.call('INCR', KEYS[1])",
                io.lettuce.core.ScriptOutputType.INTEGER, "embedded:n"));
        assertThat(fromScript).isEqualTo(1L);
        assertThat(redis.deleteKeys("embedded:")).isEqualTo(2);
    }
}
