package io.seatlock.jobs;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.FaultProxy;
import io.seatlock.test.Pauses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The alert rules and the dashboard in {@code ops/} read what a running app exports, and each rule fires on the first
 * event of a process: app-jobs runs with its Prometheus endpoint behind a proxy to Redis; a scrape is taken; each
 * rule's fault is then caused for real (a holder paused past a BROKEN_PROMISE lease and one past a WASTED_WORK lease, a
 * grant late past its own validity, Redis black-holed under kept-alive leases, lock calls and the leader, a stale
 * fenced write); a second scrape is taken. For each rule, every series its expression reads is in the first scrape
 * (at 0 where the fault had not happened yet) and has moved in the second by what the fault implies, and the rule's
 * expression, evaluated on the two scrapes, crosses its threshold where one event should be enough.
 */
class OperationsAlertRulesTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OperationsAlertRulesTest");

    private static final Path OPS = Path.of("..", "ops");
    private static final Pattern METRIC = Pattern.compile("\\b(seatlock_[a-z0-9_]+)\\b");
    private static final Pattern GROUPED_BY = Pattern.compile("by \\(([^)]*)\\)");
    /** Labels Prometheus adds when it scrapes. */
    private static final Set<String> SCRAPE_LABELS = Set.of("job", "instance", "le");
    private static final Duration COMMAND = Duration.ofMillis(500);

    private static FaultProxy redis;
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() throws Exception {
        redis = new FaultProxy(servers.redis().host(), servers.redis().port());
        Map<String, String> p = new HashMap<>(servers.springProperties());
        p.put("spring.data.redis.port", Integer.toString(redis.port()));
        p.put("server.port", "0");
        p.put("seatlock.lock.instance-id", "alerts");
        p.put("seatlock.lock.command-timeout", COMMAND.toMillis() + "ms");
        p.put("seatlock.leader.groups.jobs.lease", "1500ms");
        p.put("seatlock.leader.groups.jobs.retry", "100ms");
        p.put("management.endpoints.web.exposure.include", "health,prometheus");
        p.put("jobs.demo.enabled", "false");
        p.put("jobs.payments.cron", "-");
        p.put("jobs.report.cron", "-");
        app = JobsReplica.start(p);
    }

    @AfterAll
    static void stop() throws Exception {
        app.close();
        redis.close();
    }

    @Test
    void everyRuleReadsSeriesThatExistAtZeroBeforeItsFaultAndMoveWithIt() throws Exception {
        DistributedLock lock = app.getBean(DistributedLock.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> app.getBean(LeaderElections.class).get("jobs").isLeader());
        lock.tryAcquire("alerts:first-use", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK).orElseThrow().release();
        Map<String, Double> before = scrape();

        // a holder paused past its lease releases too late: its lease was lost, one of each impact
        for (OverlapImpact impact : OverlapImpact.values()) {
            LockLease paused = lock.tryAcquire("alerts:paused-" + impact, Duration.ofMillis(300), impact).orElseThrow();
            Pauses.awaitExpired(lock, "alerts:paused-" + impact);
            paused.release();
        }
        // a stale fenced write: a newer token was admitted first
        Fence fence = app.getBean(Fence.class);
        try (Connection connection = app.getBean(DataSource.class).getConnection()) {
            connection.setAutoCommit(false);
            fence.admit(connection, "alerts:fenced", new FencingToken(Long.MAX_VALUE / 2));
            assertThat(catchThrowable(() -> fence.admit(connection, "alerts:fenced", new FencingToken(1))))
                    .isInstanceOf(StaleFencingTokenException.class);
            connection.rollback();
        }
        // a grant that comes back after its own validity: the link is slower than the lease
        redis.delay(Duration.ofMillis(150));
        assertThat(lock.tryAcquire("alerts:late", Duration.ofMillis(100), OverlapImpact.WASTED_WORK)).isEmpty();
        redis.heal();
        // Redis goes dark under three kept-alive leases, lock calls and the leader's lease
        List<LockLease> kept = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            kept.add(lock.tryAcquire("alerts:kept-" + i, Duration.ofSeconds(3), OverlapImpact.WASTED_WORK).orElseThrow()
                    .keepAlive(() -> { }));
        }
        redis.blackhole();
        for (int i = 0; i < 6; i++) {
            assertThat(catchThrowable(() -> lock.tryAcquire("alerts:dark", Duration.ofSeconds(5),
                    OverlapImpact.WASTED_WORK))).isInstanceOf(LockUnavailableException.class);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> kept.stream().allMatch(LockLease::isLost));
        redis.heal();
        Map<String, Double> after = await().atMost(Duration.ofSeconds(20)).until(OperationsAlertRulesTest::scrape,
                s -> moved(before, s, "seatlock_lock_lost_total", "seatlock_lock_group=\"leader\"") >= 1);

        // every series each rule reads existed before its fault, and moved by what the fault implies
        assertThat(value(before, "seatlock_lock_lost_total", "seatlock_lock_group=\"alerts\"",
                "seatlock_lock_impact=\"BROKEN_PROMISE\"")).as("BROKEN_PROMISE losses before").isZero();
        assertThat(moved(before, after, "seatlock_lock_lost_total", "seatlock_lock_group=\"alerts\"",
                "seatlock_lock_impact=\"BROKEN_PROMISE\"")).isEqualTo(1);
        assertThat(moved(before, after, "seatlock_lock_lost_total", "seatlock_lock_group=\"alerts\"",
                "seatlock_lock_impact=\"WASTED_WORK\"")).as("the paused holder and the three kept leases").isEqualTo(4);
        assertThat(value(before, "seatlock_lock_fencing_rejections_total", "seatlock_lock_group=\"alerts\"")).isZero();
        assertThat(moved(before, after, "seatlock_lock_fencing_rejections_total", "seatlock_lock_group=\"alerts\""))
                .isEqualTo(1);
        assertThat(value(before, "seatlock_lock_late_grants_total", "seatlock_lock_group=\"alerts\"")).isZero();
        assertThat(moved(before, after, "seatlock_lock_late_grants_total", "seatlock_lock_group=\"alerts\"")).isEqualTo(1);
        assertThat(value(before, "seatlock_lock_unavailable_total", "seatlock_lock_group=\"alerts\"")).isZero();
        double unavailable = moved(before, after, "seatlock_lock_unavailable_total", "application=\"app-jobs\"");
        double attempts = moved(before, after, "seatlock_lock_attempts_total", "application=\"app-jobs\"");
        assertThat(unavailable).isGreaterThanOrEqualTo(6);
        assertThat(value(before, "seatlock_lock_renewals_total", "seatlock_lock_group=\"alerts\"",
                "seatlock_outcome=\"failed\"")).isZero();
        double failedRenewals = moved(before, after, "seatlock_lock_renewals_total", "seatlock_lock_group=\"alerts\"",
                "seatlock_outcome=\"failed\"");
        double renewals = moved(before, after, "seatlock_lock_renewals_total", "seatlock_lock_group=\"alerts\"");
        assertThat(value(before, "seatlock_lock_lost_total", "seatlock_lock_group=\"leader\"")).as("declared at start")
                .isZero();
        double leaderLosses = moved(before, after, "seatlock_lock_lost_total", "seatlock_lock_group=\"leader\"");

        // each rule's expression on the two scrapes, as Prometheus would over a window that holds both
        Map<String, Boolean> fires = new LinkedHashMap<>();
        fires.put("SeatlockBrokenPromiseLeaseLost", moved(before, after, "seatlock_lock_lost_total",
                "seatlock_lock_impact=\"BROKEN_PROMISE\"") > 0);
        fires.put("SeatlockLeaseLost", moved(before, after, "seatlock_lock_lost_total",
                "seatlock_lock_impact=\"WASTED_WORK\"") > 0);
        fires.put("SeatlockLockUnavailable", unavailable >= 5 && unavailable / Math.max(attempts, 1) >= 0.5);
        fires.put("SeatlockRenewalsFailing", failedRenewals >= 3 && failedRenewals / Math.max(renewals, 1) >= 0.5);
        fires.put("SeatlockFencingRejections", moved(before, after, "seatlock_lock_fencing_rejections_total") > 0);
        fires.put("SeatlockLateGrants", moved(before, after, "seatlock_lock_late_grants_total") > 0);
        fires.put("SeatlockLeadersLoseTheirLeases", leaderLosses >= 3);
        assertThat(fires).as("unavailable %s of %s attempts; failed renewals %s of %s; leader losses %s", unavailable,
                attempts, failedRenewals, renewals, leaderLosses).containsEntry("SeatlockBrokenPromiseLeaseLost", true)
                .containsEntry("SeatlockLeaseLost", true).containsEntry("SeatlockLockUnavailable", true)
                .containsEntry("SeatlockRenewalsFailing", true).containsEntry("SeatlockFencingRejections", true)
                .containsEntry("SeatlockLateGrants", true)
                .as("one leader loss is no flapping").containsEntry("SeatlockLeadersLoseTheirLeases", false);
        assertThat(fires.keySet()).as("every rule of the file is evaluated here").isEqualTo(ruleNames());
    }

    @Test
    void everyMetricAndLabelTheRulesAndTheDashboardUseIsExported() throws Exception {
        app.getBean(DistributedLock.class).tryAcquire("alerts:check", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)
                .orElseThrow().release();
        LeaderElection jobs = app.getBean(LeaderElections.class).get("jobs");
        await().atMost(Duration.ofSeconds(10)).until(jobs::isLeader);
        jobs.yieldLeadership(); // a term that ended: its timer is recorded at the term's end
        String scrape = await().atMost(Duration.ofSeconds(10)).until(OperationsAlertRulesTest::scrapeText,
                text -> text.contains("seatlock_leader_term_seconds_count{"));
        Set<String> exported = new TreeSet<>();
        Set<String> labels = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                exported.add(line.split("[{ ]")[0]);
                Matcher label = Pattern.compile("([a-z_]+)=\"").matcher(line);
                while (label.find()) {
                    labels.add(label.group(1));
                }
            }
        }
        String expressions = expressions();
        Set<String> used = new TreeSet<>();
        Set<String> groupedBy = new TreeSet<>();
        Matcher by = GROUPED_BY.matcher(expressions);
        while (by.find()) {
            for (String label : by.group(1).split(",")) {
                groupedBy.add(label.trim());
            }
        }
        Matcher metric = METRIC.matcher(expressions.replaceAll("by \\([^)]*\\)", "").replaceAll("\\{[^}]*}", ""));
        while (metric.find()) {
            used.add(metric.group(1));
        }
        groupedBy.removeAll(SCRAPE_LABELS);

        assertThat(used).as("metric names in ops/").hasSizeGreaterThanOrEqualTo(8);
        assertThat(exported).as("exported by the app").containsAll(used);
        assertThat(labels).as("labels the rules and panels group by").containsAll(groupedBy);
        assertThat(groupedBy).as("one label name per concept").doesNotContain("group");
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachRuleHasAnExpressionASeverityAndARunbookUrl() throws Exception {
        for (Map<String, Object> rule : rules()) {
            assertThat(rule).containsKeys("alert", "expr", "labels", "annotations");
            assertThat((Map<String, Object>) rule.get("labels")).containsKey("severity");
            assertThat((String) ((Map<String, Object>) rule.get("annotations")).get("runbook_url"))
                    .startsWith("https://github.com/seatlock/seatlock/blob/main/docs/operations.md#")
                    .endsWith("#" + ((String) rule.get("alert")).toLowerCase());
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules() throws Exception {
        Map<String, Object> file = new org.yaml.snakeyaml.Yaml().load(Files.readString(OPS.resolve("prometheus/seatlock-alerts.yml")));
        return (List<Map<String, Object>>) ((List<Map<String, Object>>) file.get("groups")).get(0).get("rules");
    }

    private static Set<String> ruleNames() throws Exception {
        Set<String> names = new java.util.LinkedHashSet<>();
        rules().forEach(rule -> names.add((String) rule.get("alert")));
        return names;
    }

    /** The expressions of the alert rules and of the dashboard's panels. */
    private static String expressions() throws Exception {
        StringBuilder all = new StringBuilder();
        for (Map<String, Object> rule : rules()) {
            all.append(rule.get("expr")).append('\n');
        }
        Matcher panel = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"")
                .matcher(Files.readString(OPS.resolve("grafana/seatlock-dashboard.json")));
        while (panel.find()) {
            all.append(panel.group(1).replace("\\\"", "\"")).append('\n');
        }
        return all.toString();
    }

    private static String scrapeText() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + JobsReplica.port(app) + "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Each series of a scrape and its value. */
    private static Map<String, Double> scrape() throws Exception {
        Map<String, Double> series = new LinkedHashMap<>();
        for (String line : scrapeText().split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                int space = line.lastIndexOf(' ');
                series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return series;
    }

    /** The sum over the series of {@code metric} whose labels include every matcher, as {@code sum(metric{...})}. */
    private static double value(Map<String, Double> scrape, String metric, String... matchers) {
        double sum = 0;
        boolean found = false;
        for (Map.Entry<String, Double> series : scrape.entrySet()) {
            String name = series.getKey();
            if (name.startsWith(metric + "{") && List.of(matchers).stream().allMatch(name::contains)) {
                sum += series.getValue();
                found = true;
            }
        }
        assertThat(found).as("a series %s%s in the scrape", metric, List.of(matchers)).isTrue();
        return sum;
    }

    /** What {@code increase()} over a window holding both scrapes sees, summed over the matching series. */
    private static double moved(Map<String, Double> before, Map<String, Double> after, String metric, String... matchers) {
        return value(after, metric, matchers) - value(before, metric, matchers);
    }
}
