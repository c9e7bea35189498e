package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisLockClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code seatlock.lock.redis-url} is checked once, for either client: a URL one of them would misread stops startup
 * with a message naming the property, and no message quotes the URL's password (a startup failure is logged).
 */
class RedisUrlTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class));

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "lettuce | redis://user:s3cret@host:notaport | port",
            "jedis   | redis://user:s3cret@host:notaport | port",
            "lettuce | redis://user:s3cret@host:70000    | port",
            "jedis   | redis://user:s3cret@ho st:6379    | not a valid URL",
            "lettuce | redis://user:s3cret@ho st:6379    | not a valid URL",
            "lettuce | http://user:s3cret@host:6379      | http",
            "jedis   | http://user:s3cret@host:6379      | http",
            "jedis   | redis://user:s3cret@              | host",
            "lettuce | redis-sentinel://user:s3cret@host:x#m | port",
            "jedis   | redis-sentinel://user:s3cret@host:x#m | port",
            "lettuce | redis://user:s3cret@host:6379/zero | database",
            "jedis   | redis-sentinel://user:s3cret@host:26379 | master-name"})
    void aUrlEitherClientWouldMisreadStopsStartupWithoutQuotingItsPassword(String client, String url, String told) {
        runner.withPropertyValues("seatlock.lock.client-type=" + client, "seatlock.lock.redis-url=" + url)
                .run(context -> {
                    assertThat(context).hasFailed();
                    StringWriter trace = new StringWriter();
                    context.getStartupFailure().printStackTrace(new PrintWriter(trace));
                    assertThat(trace.toString()).contains("seatlock.lock.redis-url").contains(told)
                            .doesNotContain("s3cret");
                });
    }

    @ParameterizedTest
    @CsvSource({"lettuce, 127.0.0.1:notaport", "jedis, 127.0.0.1:notaport", "lettuce, 127.0.0.1:0", "jedis, 127.0.0.1:70000"})
    void aClusterSeedWithABadPortStopsStartupNamingIt(String client, String seed) {
        runner.withPropertyValues("seatlock.lock.client-type=" + client, "seatlock.lock.cluster-nodes=" + seed)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("a node must be host:port, the port a number from 1 to 65535, was '" + seed + "'"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "lettuce | redis://user:s3cret@127.0.0.1:1",
            "jedis   | redis://user:s3cret@127.0.0.1:1",
            "lettuce | rediss://127.0.0.1:1/2",
            "jedis   | rediss://127.0.0.1:1/2",
            "lettuce | redis-sentinel://:s3cret@127.0.0.1:1,127.0.0.1:2#mymaster",
            "jedis   | redis-sentinel://:s3cret@127.0.0.1:1,127.0.0.1:2#mymaster"})
    void aWellFormedUrlStartsTheLockWhichConnectsOnFirstUse(String client, String url) {
        runner.withPropertyValues("seatlock.lock.client-type=" + client, "seatlock.lock.redis-url=" + url)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(RedisLockClient.class));
    }
}
