package io.seatlock.seats;

import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.HeadlessChromium;
import io.seatlock.localservers.HeadlessChromium.Viewport;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-11 item 1: the connection breaks after PostgreSQL received and committed the booking's COMMIT. The
 * client is told the outcome is unknown (never "nothing was booked"), and a retry with the same
 * Idempotency-Key returns the booking that was made instead of "seat taken".
 */
class BookingOutcomeTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("BookingOutcomeTest");

    @Test
    void aBookingWhoseCommitReplyIsLostIsUnknownAndItsRetryFindsIt() throws Exception {
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());
        try (FaultProxy postgres = new FaultProxy(servers.postgres().host(), servers.postgres().port());
             SeatsReplica app = SeatsReplica.start("commit-cut", servers, 1, Map.of(
                     "spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/" + servers.database(),
                     "seats.relay.interval", "1h"))) {
            postgres.cutAfterCommitFollowing("INSERT INTO email_outbox");

            HttpResponse<String> first = app.book("concert", "9E", "ada@example.com", "Ada", "ada-9e-1");
            assertThat(first.statusCode()).as(first.body()).isEqualTo(503);
            assertThat(first.body()).contains("\"type\":\"/problems/outcome-unknown\"").doesNotContain("nothing was booked");
            // It was booked: the COMMIT reached PostgreSQL.
            assertThat(db.queryForObject("SELECT buyer_email FROM seats WHERE event_id = 'concert' AND label = '9E'",
                    String.class)).isEqualTo("ada@example.com");
            String bookingId = db.queryForObject("SELECT id::text FROM bookings WHERE idempotency_key = 'ada-9e-1'",
                    String.class);

            // The client retries as it was told; the pool may first hand out a connection the cut killed
            // (503 database-unavailable, a known "nothing happened" for that attempt), so it retries until answered.
            HttpResponse<String> retry = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> app.book("concert", "9E", "ada@example.com", "Ada", "ada-9e-1"),
                            r -> r.statusCode() != 503);
            assertThat(retry.statusCode()).as(retry.body()).isEqualTo(201);
            assertThat(retry.body()).contains("\"bookingId\":\"" + bookingId + "\"");
            HttpResponse<String> lookUp = app.get("/api/bookings?idempotency-key=ada-9e-1");
            assertThat(lookUp.statusCode()).isEqualTo(200);
            assertThat(lookUp.body()).contains("\"bookingId\":\"" + bookingId + "\"", "\"seat\":\"9E\"");

            assertThat(app.book("concert", "9E", "bob@example.com", "Bob", "bob-9e-1").statusCode())
                    .as("another buyer's key is another booking: taken").isEqualTo(409);
            assertThat(app.book("concert", "10E", "ada@example.com", "Ada", "ada-9e-1").statusCode())
                    .as("a key names one booking").isEqualTo(422);
            HttpResponse<String> otherBuyer = app.book("concert", "9E", "eve@example.com", "Eve", "ada-9e-1");
            assertThat(otherBuyer.statusCode()).as("a retry sends what the first request sent").isEqualTo(422);
            assertThat(otherBuyer.body()).contains("/problems/idempotency-key-reused").doesNotContain("ada@example.com");
            assertThat(db.queryForObject("SELECT buyer_email FROM seats WHERE event_id = 'concert' AND label = '9E'",
                    String.class)).isEqualTo("ada@example.com");
            assertThat(app.get("/api/bookings?idempotency-key=never-used").statusCode()).isEqualTo(404);
            assertThat(db.queryForObject("SELECT count(*) FROM email_outbox WHERE booking_id = ?::uuid", Long.class,
                    bookingId)).as("one confirmation, retry or not").isEqualTo(1);
        }
    }

    /**
     * Chooses {@code seat} on the map, fills the form in and presses Book with the link set to break after
     * COMMIT. Without live updates the page cannot find the outcome out by itself (a stalled phone).
     */
    private static WebDriverWait bookThroughACutCommit(WebDriver browser, FaultProxy postgres, SeatsReplica app,
                                                      String seat, String name, String email, boolean liveUpdates) {
        WebDriverWait wait = HeadlessChromium.waitFor(browser, 60);
        browser.get(app.uri("/").toString());
        wait.until(d -> d.findElement(By.cssSelector("button[data-seat='" + seat + "']"))).click();
        browser.findElement(By.id("name")).sendKeys(name);
        browser.findElement(By.id("email")).sendKeys(email);
        if (!liveUpdates) {
            ((JavascriptExecutor) browser).executeScript(SeatMapBrowserTest.STOP_LIVE_UPDATES);
        }
        postgres.cutAfterCommitFollowing("INSERT INTO email_outbox");
        browser.findElement(By.id("book")).click();
        return wait;
    }

    /** Waits for {@code text} in the page's message; on timeout says what the page said instead, with a screenshot. */
    private static void awaitMessage(WebDriver browser, WebDriverWait wait, String text, String screenshot) {
        try {
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), text));
        } catch (org.openqa.selenium.TimeoutException e) {
            HeadlessChromium.screenshot(browser, screenshot);
            throw new AssertionError("expected '" + text + "' but the page said: '"
                    + browser.findElement(By.id("message")).getText() + "'", e);
        }
    }

    @Test
    void theSeatMapSaysTheOutcomeIsUnknownAndBookingAgainReturnsTheBookingThatWasMade() throws Exception {
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());
        WebDriver browser = HeadlessChromium.open(Viewport.DESKTOP);
        try (FaultProxy postgres = new FaultProxy(servers.postgres().host(), servers.postgres().port());
             SeatsReplica app = SeatsReplica.start("commit-cut-page", servers, 1, Map.of(
                     "spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/" + servers.database(),
                     "seats.relay.interval", "1h"))) {
            WebDriverWait wait = bookThroughACutCommit(browser, postgres, app, "9F", "Ada", "ada@example.com", false);
            awaitMessage(browser, wait, "We don't know yet whether seat 9F was booked", "seatmap-desktop-outcome-unknown-timeout");
            HeadlessChromium.screenshot(browser, "seatmap-desktop-outcome-unknown");
            assertThat(db.queryForObject("SELECT buyer_email FROM seats WHERE event_id = 'concert' AND label = '9F'",
                    String.class)).as("the COMMIT reached PostgreSQL").isEqualTo("ada@example.com");

            // "Book seat" again, as the page says, until answered (the pool may first hand out a killed connection).
            wait.pollingEvery(Duration.ofMillis(300)).until(d -> {
                String message = d.findElement(By.id("message")).getText();
                if (message.contains("Booked: seat 9F is yours")) {
                    return true;
                }
                WebElement book = d.findElement(By.id("book"));
                if (book.isDisplayed() && book.isEnabled()) {
                    book.click();
                }
                return false;
            });
            String shownId = browser.findElement(By.id("booking-id")).getText();
            assertThat(db.queryForObject("SELECT id::text FROM bookings WHERE event_id = 'concert' AND seat_label = '9F'",
                    String.class)).isEqualTo(shownId);
            assertThat(db.queryForObject("SELECT count(*) FROM email_outbox WHERE booking_id = ?::uuid", Long.class,
                    shownId)).as("one confirmation").isEqualTo(1);
        } finally {
            browser.quit();
        }
    }

    @Test
    void theSeatMapResolvesAnUnknownOutcomeByItselfWhenTheSeatTurnsBooked() throws Exception {
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());
        WebDriver browser = HeadlessChromium.open(Viewport.DESKTOP);
        try (FaultProxy postgres = new FaultProxy(servers.postgres().host(), servers.postgres().port());
             SeatsReplica app = SeatsReplica.start("commit-cut-resolve", servers, 1, Map.of(
                     "spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/" + servers.database(),
                     "seats.relay.interval", "1h"))) {
            WebDriverWait wait = bookThroughACutCommit(browser, postgres, app, "9G", "Bea", "bea@example.com", true);
            // Nobody presses anything: the live update sees 9G booked and the key finds the booking: it is hers.
            // (The "don't know yet" message may be replaced within a push, so it is not waited for here.)
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Booked: seat 9G is yours"));
            wait.until(ExpectedConditions.attributeToBe(By.cssSelector("button[data-seat='9G']"), "data-status", "YOURS"));
            assertThat(db.queryForObject("SELECT id::text FROM bookings WHERE event_id = 'concert' AND seat_label = '9G'",
                    String.class)).isEqualTo(browser.findElement(By.id("booking-id")).getText());
        } finally {
            browser.quit();
        }
    }
}
