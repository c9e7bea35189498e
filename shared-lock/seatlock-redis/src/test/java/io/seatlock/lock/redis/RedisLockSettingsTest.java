package io.seatlock.lock.redis;

import io.seatlock.lock.spi.LeaseTiming;
import io.seatlock.lock.redis.spi.RedisCommand;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An instance id is the readable part of every owner token, and a waiter marks a held lock by appending
 * {@code |waited} to its token: an id ending so would make every token look marked already, so its releases would
 * announce nothing to waiters, and {@code holder()} would name the instance without its last word. A wait that is not
 * positive is refused by name.
 */
class RedisLockSettingsTest {

    @Test
    void anInstanceIdEndingInTheWaitersMarkIsRefused() {
        assertThatThrownBy(() -> RedisLockSettings.defaults().withInstanceId("replica-1|waited"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not end in \"|waited\"");

        assertThat(RedisLockSettings.defaults().withInstanceId("replica|waited-1").instanceId())
                .as("the mark elsewhere in the id is no mark").isEqualTo("replica|waited-1");
    }

    @Test
    void aWaitThatIsNotPositiveIsRefusedByName() {
        RedisLockSettings d = RedisLockSettings.defaults();
        Duration zero = Duration.ZERO;
        assertThatThrownBy(() -> d.timing().withBackoff(zero, d.timing().maxBackoff()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("min backoff must be positive, was PT0S");
        assertThatThrownBy(() -> d.timing().withBackoff(d.timing().minBackoff(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("max backoff must be positive, was null");
        assertThatThrownBy(() -> d.withReplicas(1, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("replica wait must be positive, was PT-0.001S");
    }

    @Test
    void eachWitherChangesItsSettingAloneAndSettingsAreEqualByValue() {
        RedisLockSettings d = RedisLockSettings.defaults().withInstanceId("a");
        LeaseTiming timing = LeaseTiming.defaults().withSafetyMargin(0.2, Duration.ofMillis(7))
                .withBackoff(Duration.ofMillis(3), Duration.ofMillis(30));
        RedisLockSettings changed = d.withKeyPrefix("p:").withTiming(timing).withReplicas(2, Duration.ofMillis(40));

        assertThat(changed.keyPrefix()).isEqualTo("p:");
        assertThat(changed.instanceId()).isEqualTo("a");
        assertThat(changed.timing()).isEqualTo(new LeaseTiming(0.2, Duration.ofMillis(7), Duration.ofMillis(3),
                Duration.ofMillis(30)));
        assertThat(changed.replicas()).isEqualTo(2);
        assertThat(changed.replicaWait()).isEqualTo(Duration.ofMillis(40));
        assertThat(changed).isEqualTo(d.withReplicas(2, Duration.ofMillis(40)).withTiming(timing).withKeyPrefix("p:"))
                .hasSameHashCodeAs(changed.withInstanceId("a")).isNotEqualTo(d);
        assertThat(changed.toString()).startsWith("RedisLockSettings[keyPrefix=p:, instanceId=a,");
    }

    @Test
    void tlsMaterialAndScriptsKeepTheirOwnImmutableListsAndCompareByValue() {
        List<String> protocols = new ArrayList<>(List.of("TLSv1.3"));
        RedisEndpoints.TlsMaterial tls = new RedisEndpoints.TlsMaterial(null, null, protocols, null);
        protocols.add("TLSv1.2");
        assertThat(tls.protocols()).containsExactly("TLSv1.3");
        assertThat(tls).isEqualTo(new RedisEndpoints.TlsMaterial(null, null, List.of("TLSv1.3"), null));
        assertThatThrownBy(() -> tls.protocols().add("SSLv3")).isInstanceOf(UnsupportedOperationException.class);

        RedisCommand.Script script = LockScripts.RELEASE.command(List.of("k"),
                List.of("owner"));
        assertThat(script).isEqualTo(LockScripts.RELEASE.command(List.of("k"), List.of("owner")));
        assertThatThrownBy(() -> new RedisCommand.Script("sha", "return 1",
                List.of(), List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
