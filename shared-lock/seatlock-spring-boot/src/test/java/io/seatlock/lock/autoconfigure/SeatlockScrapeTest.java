package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.micrometer.DefaultLockObservationConvention;
import io.seatlock.lock.micrometer.LockGroups;
import io.seatlock.lock.micrometer.LockObservationContext;
import io.seatlock.lock.micrometer.LockObservationConvention;
import io.micrometer.common.KeyValues;
import io.seatlock.localservers.IsolatedServers;
import io.micrometer.core.instrument.config.MeterFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator's scrape shows of the lock, on a Prometheus registry with Micrometer's observation handler (as
 * Spring Boot wires both): 10,000 distinct lock names add a bounded number of series, the same groups in the meters
 * and the observations; the lock's timers have histogram buckets; a convention of the application's own renames and
 * retags the observations.
 */
class SeatlockScrapeTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatlockScrapeTest");

    /** Spring Boot's wiring, by hand: the library's meter filter on the registry before any meter is made. */
    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /** And observations recorded as meters, as Boot's observation handler records them. */
    private final ObservationRegistry observations = ObservationRegistry.create();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeatlockMetricsAutoConfiguration.class,
                    SeatlockLockAutoConfiguration.class, SeatlockObservationAutoConfiguration.class))
            .withBean(PrometheusMeterRegistry.class, () -> meters)
            .withBean(ObservationRegistry.class, () -> observations)
            .withPropertyValues("seatlock.lock.redis-url=redis://127.0.0.1:" + servers.redis().port(),
                    "seatlock.lock.key-prefix=" + servers.keyPrefix());

    SeatlockScrapeTest() {
        meters.config().meterFilter(new SeatlockMetricsAutoConfiguration().seatlockTimerBuckets());
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    }

    private PrometheusMeterRegistry wired(ApplicationContext context) {
        assertThat(context.getBean(MeterFilter.class)).as("the library's filter, applied above").isNotNull();
        return meters;
    }

    @Test
    void tenThousandDistinctLockNamesAddABoundedNumberOfSeries() {
        runner.run(context -> {
            PrometheusMeterRegistry meters = wired(context);
            DistributedLock lock = context.getBean(DistributedLock.class);
            lock.tryAcquire("warm-up", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK).orElseThrow().release();
            int before = series(meters.scrape()).size();

            for (int i = 0; i < 10_000; i++) {
                // half per-item names of one group, half names without a ':', each a group of its own
                String name = i % 2 == 0 ? "seat:" + i : "order-" + i;
                lock.tryAcquire(name, Duration.ofSeconds(5), OverlapImpact.BROKEN_PROMISE).orElseThrow().release();
            }
            String scrape = meters.scrape();
            Set<String> groups = labelValues(scrape.lines().filter(l -> !l.startsWith("seatlock_lock_acquire"))
                    .collect(Collectors.joining("\n")), "seatlock_lock_group");
            Set<String> observedGroups = labelValues(scrape.lines().filter(l -> l.startsWith("seatlock_lock_acquire"))
                    .collect(Collectors.joining("\n")), "seatlock_lock_group");
            assertThat(groups).as("groups in the meters").hasSize(LockGroups.DEFAULT_MAX + 1)
                    .contains("seat", LockGroups.OVERFLOW);
            assertThat(groups).as("the observations tag only groups the meters tag (and the meters the declared ones too)")
                    .containsAll(observedGroups);
            assertThat(observedGroups).contains("seat", LockGroups.OVERFLOW).hasSizeGreaterThan(LockGroups.DEFAULT_MAX / 2);
            int added = series(scrape).size() - before;
            assertThat(added).as("series added by 10,000 names, over %s groups", groups.size())
                    .isLessThan(120 * (LockGroups.DEFAULT_MAX + 1));
            assertThat(scrape).as("the acquire timer's buckets").contains("seatlock_lock_acquire_seconds_bucket{")
                    .contains("seatlock_lock_held_seconds_bucket{");
        });
    }

    @Test
    void aConventionOfTheApplicationsOwnRenamesAndRetagsTheObservations() {
        runner.withBean(LockObservationConvention.class, () -> new DefaultLockObservationConvention() {
            @Override
            public String getName(LockObservationContext.Kind kind) {
                return "shop." + super.getName(kind);
            }

            @Override
            public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
                return super.getLowCardinalityKeyValues(context).and("team", "tickets");
            }
        }).run(context -> {
            PrometheusMeterRegistry meters = wired(context);
            context.getBean(DistributedLock.class).tryAcquire("seat:1", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK)
                    .orElseThrow().release();
            String scrape = meters.scrape();
            assertThat(scrape).contains("shop_seatlock_lock_acquire_seconds_count{").contains("team=\"tickets\"")
                    .doesNotContain("\nseatlock_lock_acquire_seconds_count{");
        });
    }

    private static Set<String> series(String scrape) {
        return scrape.lines().filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.substring(0, line.lastIndexOf(' '))).collect(Collectors.toSet());
    }

    private static Set<String> labelValues(String scrape, String label) {
        return scrape.lines().filter(line -> line.startsWith("seatlock") && line.contains(label + "=\""))
                .map(line -> line.substring(line.indexOf(label + "=\"") + label.length() + 2))
                .map(rest -> rest.substring(0, rest.indexOf('"'))).collect(Collectors.toSet());
    }

}
