package io.seatlock.jobs;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The alert rules and the dashboard shipped in {@code ops/} speak of what the library really exports: every metric
 * name in their expressions, and every label they group by, is in a running app's {@code /actuator/prometheus} once
 * each kind of event has happened.
 */
class OperationsAlertRulesTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OperationsAlertRulesTest");

    private static final Path OPS = Path.of("..", "ops");
    /** A metric name: not a label inside {...} or by (...), not a function. */
    private static final Pattern METRIC = Pattern.compile("\\b(seatlock_[a-z0-9_]+)\\b");
    private static final Pattern GROUPED_BY = Pattern.compile("by \\(([^)]*)\\)");
    /** Labels Prometheus adds when it scrapes. */
    private static final Set<String> SCRAPE_LABELS = Set.of("job", "instance", "le");

    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        Map<String, String> p = new HashMap<>(servers.springProperties());
        p.put("server.port", "0");
        p.put("seatlock.lock.instance-id", "alerts");
        p.put("seatlock.leader.groups.jobs.lease", "1500ms");
        p.put("seatlock.leader.groups.jobs.retry", "100ms");
        p.put("management.endpoints.web.exposure.include", "health,prometheus");
        p.put("jobs.demo.enabled", "false");
        p.put("jobs.payments.cron", "-");
        p.put("jobs.report.cron", "-");
        app = JobsReplica.start(p);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void everyMetricAndLabelTheRulesAndTheDashboardUseIsExported() throws Exception {
        happenOnce();
        String scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + JobsReplica.port(app) + "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString()).body();
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

        assertThat(used).as("metric names in ops/").hasSizeGreaterThanOrEqualTo(10);
        assertThat(exported).as("exported by the app").containsAll(used);
        assertThat(labels).as("labels the rules group by").containsAll(groupedBy);
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachRuleHasANameAnExpressionASeverityAndARunbook() throws Exception {
        Map<String, Object> file = new org.yaml.snakeyaml.Yaml().load(Files.readString(OPS.resolve("prometheus/seatlock-alerts.yml")));
        java.util.List<Map<String, Object>> rules = (java.util.List<Map<String, Object>>)
                ((java.util.List<Map<String, Object>>) file.get("groups")).get(0).get("rules");
        assertThat(rules).hasSizeGreaterThanOrEqualTo(7).allSatisfy(rule -> {
            assertThat(rule).containsKeys("alert", "expr", "labels", "annotations");
            assertThat((Map<String, Object>) rule.get("labels")).containsKey("severity");
            assertThat((Map<String, Object>) rule.get("annotations")).containsEntry("runbook", "docs/operations.md#alerts");
        });
    }

    /** The expressions of the alert rules and of the dashboard's panels. */
    private static String expressions() throws Exception {
        StringBuilder all = new StringBuilder();
        Matcher rule = Pattern.compile("expr: (.+)").matcher(Files.readString(OPS.resolve("prometheus/seatlock-alerts.yml")));
        while (rule.find()) {
            all.append(rule.group(1)).append('\n');
        }
        Matcher panel = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"")
                .matcher(Files.readString(OPS.resolve("grafana/seatlock-dashboard.json")));
        while (panel.find()) {
            all.append(panel.group(1).replace("\\\"", "\"")).append('\n');
        }
        return all.toString();
    }

    /** Each kind of event once: an acquire and its lease, every listener event, a leader term that ends. */
    private static void happenOnce() {
        app.getBean(DistributedLock.class).tryAcquire("alerts:check", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)
                .orElseThrow().release();
        for (LockListener listener : app.getBeansOfType(LockListener.class).values()) {
            listener.onLost("alerts", OverlapImpact.BROKEN_PROMISE, Duration.ofSeconds(1));
            listener.onUnavailable("alerts");
            listener.onLateGrant("alerts");
            listener.onRenewalFailed("alerts");
            listener.onFencingRejected("alerts:1");
        }
        LeaderElection jobs = app.getBean(LeaderElections.class).get("jobs");
        await().atMost(Duration.ofSeconds(10)).until(jobs::isLeader);
        jobs.yieldLeadership(); // a term that ended
    }
}
