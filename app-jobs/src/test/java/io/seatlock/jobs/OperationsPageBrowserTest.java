package io.seatlock.jobs;

import io.seatlock.localservers.HeadlessChromium;
import io.seatlock.localservers.HeadlessChromium.Viewport;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.FaultProxy;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.leader.LeaderElections;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The operations page of two app-jobs replicas in headless Chromium: both show the same leader and epoch,
 * job runs by slot and replica, captured demo payments, a paused leader's rejected write, and the migration
 * history. Screenshots land in {@code target/screenshots/operations-*.png}.
 */
class OperationsPageBrowserTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OperationsPageBrowserTest");

    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void startTwoReplicas() {
        first = start("ops-1");
        second = start("ops-2");
    }

    @AfterAll
    static void stop() {
        second.close();
        first.close();
    }

    private static ConfigurableApplicationContext start(String name) {
        return start(name, Map.of());
    }

    private static ConfigurableApplicationContext start(String name, Map<String, String> overrides) {
        Map<String, String> p = new HashMap<>(servers.springProperties());
        p.put("seatlock.lock.instance-id", name);
        p.put("server.port", "0");
        p.put("seatlock.leader.groups.jobs.lease", "3s");
        p.put("seatlock.leader.groups.jobs.retry", "200ms");
        p.put("jobs.leader.duty-interval", "1s");
        p.put("jobs.payments.cron", "*/2 * * * * *");
        p.put("jobs.demo.enabled", "true");
        p.put("jobs.demo.order-every", "500ms");
        p.putAll(overrides);
        return JobsReplica.start(p);
    }

    private static String url(ConfigurableApplicationContext replica) {
        return "http://127.0.0.1:" + JobsReplica.port(replica) + "/";
    }

    private static WebDriverWait waitFor(WebDriver browser) {
        return HeadlessChromium.waitFor(browser, 60);
    }

    /**
     * The texts of a table's cells, row by row, read in one script: the page redraws its tables every 2 s,
     * so elements found one by one may go stale between two reads.
     */
    @SuppressWarnings("unchecked")
    private static List<List<String>> rows(WebDriver browser, String table) {
        return (List<List<String>>) ((JavascriptExecutor) browser).executeScript(
                "return [...document.querySelectorAll(arguments[0] + ' tbody tr')]"
                        + ".map(tr => [...tr.cells].map(td => td.textContent.trim()))", table);
    }

    /** A figure of the page, or -1 while it shows none ("–" before the first answer). */
    private static double figure(WebDriver browser, String id) {
        String text = browser.findElement(By.id(id)).getText();
        return text.matches("\\d+(\\.\\d+)?") ? Double.parseDouble(text) : -1;
    }

    /** Every word in a table cell whose letters the browser laid out on more than one line. */
    @SuppressWarnings("unchecked")
    private static List<String> wordsBrokenAcrossLines(WebDriver browser) {
        return (List<String>) ((JavascriptExecutor) browser).executeScript("""
                const broken = [];
                for (const td of document.querySelectorAll('td')) {
                    const texts = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
                    for (let text = texts.nextNode(); text; text = texts.nextNode()) {
                        for (const word of text.data.matchAll(/\\S+/g)) {
                            const range = document.createRange();
                            range.setStart(text, word.index);
                            range.setEnd(text, word.index + word[0].length);
                            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                            if (lines.size > 1) broken.push(word[0]);
                        }
                    }
                }
                return broken;""");
    }

    /** The 'jobs' group's row of the leaders table: group, leader, epoch, lease left, this replica. */
    private static List<String> jobsLeader(WebDriver browser) {
        return rows(browser, "#leaders").stream().filter(r -> r.get(0).equals("jobs")).findFirst().orElse(List.of("", "", "", "", ""));
    }

    @Test
    void bothReplicasShowTheSameLeaderAndEpochAndWhatTheJobsDid() {
        WebDriver onFirst = HeadlessChromium.open(Viewport.DESKTOP);
        WebDriver onSecond = HeadlessChromium.open(Viewport.DESKTOP);
        try {
            onFirst.get(url(first));
            onSecond.get(url(second));
            waitFor(onFirst).until(d -> d.findElement(By.id("replica")).getText().equals("ops-1"));
            waitFor(onSecond).until(d -> d.findElement(By.id("replica")).getText().equals("ops-2"));

            // The leader has written under its epoch; both pages agree on who leads and in which epoch.
            waitFor(onFirst).until(d -> !jobsLeader(d).get(2).isEmpty() && !jobsLeader(d).get(1).equals("nobody"));
            waitFor(onSecond).until(d -> jobsLeader(d).subList(1, 3).equals(jobsLeader(onFirst).subList(1, 3)));
            List<String> seenFirst = jobsLeader(onFirst);
            List<String> seenSecond = jobsLeader(onSecond);
            String leader = seenFirst.get(1);
            assertThat(leader).isIn("ops-1", "ops-2");
            LeaderElections leaderSide = (leader.equals("ops-1") ? first : second).getBean(LeaderElections.class);
            assertThat(leaderSide.get("jobs").epoch()).hasValueSatisfying(
                    epoch -> assertThat(seenFirst.get(2)).isEqualTo(Long.toString(epoch.value())));
            assertThat(List.of(seenFirst.get(4), seenSecond.get(4))).containsExactlyInAnyOrder("leads", "follows");
            assertThat(seenFirst.get(3)).endsWith(" s");

            // Demo orders were placed and the capture job took them, once each, slot by slot.
            waitFor(onFirst).until(d -> figure(d, "captured") > 0);
            waitFor(onFirst).until(d -> rows(d, "#job-runs").stream().filter(r -> r.contains("payment-capture")).count() >= 3);
            JdbcClient db = JdbcClient.create(servers.dataSource());
            assertThat(db.sql("SELECT count(*) FROM payments WHERE state = 'CAPTURED' AND captured_slot IS NULL")
                    .query(Long.class).single()).isZero();
            List<String> runners = db.sql("SELECT DISTINCT runner FROM job_runs").query(String.class).list();
            assertThat(runners).isNotEmpty().isSubsetOf("ops-1", "ops-2");

            // Migrations: the app's four versions and the library's repeatable DDL, applied once.
            List<String> versions = rows(onFirst, "#migrations").stream().map(r -> r.get(0)).toList();
            assertThat(versions).contains("1", "2", "3", "4", "repeatable");
            assertThat(db.sql("SELECT count(*) FROM flyway_schema_history WHERE version = '1'").query(Long.class).single())
                    .isEqualTo(1);
            HeadlessChromium.screenshot(onFirst, "operations-desktop");
            HeadlessChromium.screenshot(onSecond, "operations-desktop-second-replica");
        } finally {
            onFirst.quit();
            onSecond.quit();
        }
    }

    /**
     * GH-21 item 11: the page of a replica whose PostgreSQL is gone says so, shows no figure as if it were
     * current (a page opened then shows none; a page already open marks its figures with their time), and
     * is live again by itself once the database is back.
     */
    @Test
    void aReplicaWhoseDatabaseIsGoneSaysSoAndShowsNoFigureAsCurrent() throws Exception {
        try (FaultProxy link = new FaultProxy(servers.postgres().host(), servers.postgres().port())) {
            ConfigurableApplicationContext dark = start("ops-dark", Map.of(
                    "spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + link.port() + "/" + servers.database(),
                    "spring.datasource.hikari.connection-timeout", "1000",
                    "spring.datasource.hikari.data-source-properties.connectTimeout", "1",
                    "jobs.demo.enabled", "false", "jobs.payments.cron", "-"));
            WebDriver open = HeadlessChromium.open(Viewport.DESKTOP);
            WebDriver late = HeadlessChromium.open(Viewport.PHONE);
            try {
                open.get(url(dark));
                waitFor(open).until(d -> d.findElement(By.id("updated")).getText().startsWith("updated"));
                String captured = open.findElement(By.id("captured")).getText();
                assertThat(captured).matches("\\d+");

                link.down();
                waitFor(open).until(d -> d.findElement(By.id("problem")).isDisplayed());
                assertThat(open.findElement(By.id("problem")).getText())
                        .startsWith("This replica cannot read its database: ").doesNotContain(": null").doesNotContain("..")
                        .contains("The figures below are from").contains("Trying again every 2 s.");
                assertThat(open.findElement(By.tagName("body")).getAttribute("class")).contains("stale");
                assertThat(open.findElement(By.id("updated")).getText()).startsWith("last updated");
                HeadlessChromium.screenshot(open, "operations-desktop-database-gone");

                late.get(url(dark));
                waitFor(late).until(d -> d.findElement(By.id("problem")).isDisplayed());
                assertThat(late.findElement(By.id("problem")).getText()).contains("No figures can be shown until it can.");
                assertThat(List.of("captured", "pending", "accepted", "rejected")).allSatisfy(figure ->
                        assertThat(late.findElement(By.id(figure)).getText()).as(figure).isEqualTo("–"));
                assertThat(rows(late, "#payments")).isEmpty();
                HeadlessChromium.screenshot(late, "operations-phone-database-gone");

                link.heal();
                waitFor(late).until(d -> !d.findElement(By.id("problem")).isDisplayed());
                waitFor(open).until(d -> !d.findElement(By.id("problem")).isDisplayed());
                assertThat(late.findElement(By.id("captured")).getText()).matches("\\d+");
                assertThat(open.findElement(By.tagName("body")).getAttribute("class")).doesNotContain("stale");
            } finally {
                open.quit();
                late.quit();
                dark.close();
            }
        }
    }

    @Test
    void aPausedLeadersLateWriteShowsAsARejectionAndLeavesNothing() {
        WebDriver phone = HeadlessChromium.open(Viewport.PHONE);
        try {
            // As a leader of a long-gone epoch would, waking up: storage has seen newer epochs since.
            JdbcClient db = JdbcClient.create(servers.dataSource());
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() ->
                    db.sql("SELECT count(*) FROM lock_fences WHERE resource = 'leader:jobs'").query(Long.class).single() == 1);
            assertThatThrownBy(() -> PausedLeader.write(second, "jobs", new FencingToken(1), "paused-leader", "late write"))
                    .isInstanceOf(StaleFencingTokenException.class);
            assertThat(db.sql("SELECT count(*) FROM leader_actions WHERE holder = 'paused-leader'")
                    .query(Long.class).single()).isZero();

            phone.get(url(second));
            waitFor(phone).until(d -> figure(d, "rejected") >= 1);
            JavascriptExecutor js = (JavascriptExecutor) phone;
            assertThat((Long) js.executeScript("return document.documentElement.scrollWidth"))
                    .as("no sideways scrolling of the page").isLessThanOrEqualTo(390L);
            waitFor(phone).until(d -> rows(d, "#payments").size() > 1 && rows(d, "#leader-writes").size() > 1);
            assertThat(wordsBrokenAcrossLines(phone)).as("GH-21 item 11: table cells wrap between words only").isEmpty();
            HeadlessChromium.screenshot(phone, "operations-phone");
        } finally {
            phone.quit();
        }
    }
}
