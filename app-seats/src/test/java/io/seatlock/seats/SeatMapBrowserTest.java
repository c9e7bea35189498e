package io.seatlock.seats;

import io.seatlock.lock.redis.RedisKeys;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.HeadlessChromium;
import io.seatlock.localservers.HeadlessChromium.Viewport;
import io.seatlock.localservers.IsolatedServers;
import io.lettuce.core.SetArgs;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Drives the seat map in headless Chromium as buyers would, two or three at once, each in its own browser
 * session. Screenshots land in {@code target/screenshots/seatmap-*.png}.
 */
class SeatMapBrowserTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatMapBrowserTest");

    /** Stops the page's live updates, as on a stalled phone: its map stream and any polling. */
    static final String STOP_LIVE_UPDATES = "if (stream) { stream.close(); stream = null; }"
            + " for (let i = 1; i < 10000; i++) clearInterval(i);";

    private static final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private static SeatsReplica app;
    private static SeatsDatabase db;

    @BeforeAll
    static void start() {
        mail.start();
        app = SeatsReplica.start("browser", servers, mail.getSmtp().getPort(), Map.of());
        db = new SeatsDatabase(servers);
    }

    @AfterAll
    static void stop() {
        app.close();
        mail.stop();
    }

    private static WebDriverWait waitFor(WebDriver browser) {
        return HeadlessChromium.waitFor(browser, 30);
    }

    private static WebElement seat(WebDriver browser, String label) {
        return browser.findElement(By.cssSelector("button[data-seat='" + label + "']"));
    }

    private static void open(WebDriver browser, String path) {
        browser(browser, app, path);
    }

    private static void browser(WebDriver browser, SeatsReplica replica, String path) {
        browser.get(replica.uri(path).toString());
        waitFor(browser).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("button[data-seat='1A']")));
    }

    private static void waitForStatus(WebDriver browser, String label, String status) {
        waitFor(browser).until(ExpectedConditions.attributeToBe(
                By.cssSelector("button[data-seat='" + label + "']"), "data-status", status));
    }

    private static void waitForMessage(WebDriver browser, String text) {
        waitFor(browser).until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), text));
    }

    private static void fillIn(WebDriver browser, String name, String email) {
        browser.findElement(By.id("name")).sendKeys(name);
        browser.findElement(By.id("email")).sendKeys(email);
    }

    private static List<String> recipientsOfMail() {
        return Arrays.stream(mail.getReceivedMessages()).map(SeatMapBrowserTest::recipient).toList();
    }

    private static String recipient(MimeMessage message) {
        try {
            return message.getRecipients(Message.RecipientType.TO)[0].toString();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aBuyerChoosesCancelsBooksAndASecondBuyerSeesItTakenWithoutReloading() {
        WebDriver lena = HeadlessChromium.open(Viewport.DESKTOP);
        WebDriver omar = HeadlessChromium.open(Viewport.DESKTOP);
        try {
            open(lena, "/");
            assertThat(lena.findElement(By.id("event-name")).getText()).isEqualTo("The Lock Ensemble, live");
            assertThat(lena.findElement(By.cssSelector(".stage")).getText()).isEqualTo("STAGE");
            assertThat(lena.findElements(By.cssSelector("[role=rowheader]"))).extracting(WebElement::getText)
                    .startsWith("A", "B", "C").hasSize(20);
            assertThat(lena.findElement(By.id("booking")).isDisplayed()).as("form before a seat is chosen").isFalse();
            HeadlessChromium.screenshot(lena, "seatmap-desktop-start");

            // Choose, then cancel: the form goes away and nothing is booked.
            seat(lena, "14C").click();
            waitFor(lena).until(ExpectedConditions.visibilityOfElementLocated(By.id("booking")));
            assertThat(lena.findElement(By.id("chosen")).getText()).isEqualTo("14C");
            assertThat(seat(lena, "14C").getAttribute("class")).contains("CHOSEN");
            lena.findElement(By.id("cancel")).click();
            waitFor(lena).until(ExpectedConditions.invisibilityOfElementLocated(By.id("booking")));
            assertThat(seat(lena, "14C").getAttribute("class")).doesNotContain("CHOSEN");
            assertThat(lena.findElement(By.id("message")).getText()).contains("No seat chosen");
            assertThat(db.buyerOf("concert", "14C")).isNull();

            // Omar picks 14C and starts typing; Lena books it first.
            open(omar, "/");
            seat(omar, "14C").click();
            fillIn(omar, "Omar", "omar@example.com");

            seat(lena, "14C").click();
            fillIn(lena, "Lena", "lena@example.com");
            lena.findElement(By.id("book")).click();
            waitForMessage(lena, "Booked: seat 14C is yours");
            waitForStatus(lena, "14C", "YOURS");
            String bookingId = lena.findElement(By.id("booking-id")).getText();
            assertThat(db.bookings("concert", "14C")).singleElement()
                    .satisfies(row -> assertThat(row.get("id")).hasToString(bookingId))
                    .satisfies(row -> assertThat(row.get("buyer_email")).isEqualTo("lena@example.com"));
            assertThat(lena.findElement(By.id("booking")).isDisplayed()).isFalse();
            HeadlessChromium.screenshot(lena, "seatmap-desktop-booked");

            // Omar's page, never reloaded, learns it from the live update (or from the referee if he is faster).
            waitForStatus(omar, "14C", "BOOKED");
            if (omar.findElement(By.id("booking")).isDisplayed()) {
                omar.findElement(By.id("book")).click();
            }
            waitForMessage(omar, "Seat 14C was just taken");
            assertThat(omar.findElement(By.id("booking")).isDisplayed()).isFalse();
            HeadlessChromium.screenshot(omar, "seatmap-desktop-just-taken");

            await().atMost(Duration.ofSeconds(60)).until(() -> recipientsOfMail().contains("lena@example.com"));
            assertThat(db.buyerOf("concert", "14C")).isEqualTo("lena@example.com");
            assertThat(recipientsOfMail()).doesNotContain("omar@example.com");
        } finally {
            lena.quit();
            omar.quit();
        }
    }

    /**
     * GH-20 item 5: an open page gets the map pushed (server-sent events): after loading it asks for the map no
     * more, and still shows a booking made elsewhere.
     */
    @Test
    void anOpenPageGetsTheMapPushedAndStopsAskingForIt() {
        WebDriver viewer = HeadlessChromium.open(Viewport.DESKTOP);
        try {
            open(viewer, "/");
            waitFor(viewer).until(b -> Long.valueOf(1).equals(((JavascriptExecutor) b).executeScript(
                    "return stream && stream.readyState"))); // EventSource.OPEN
            long asked = app.timed("http.server.requests", "uri", "/api/events/{event}/seats");

            assertThat(app.book("concert", "17R", "vera@example.com", "Vera").statusCode()).isEqualTo(201);
            waitForStatus(viewer, "17R", "BOOKED");
            assertThat(app.timed("http.server.requests", "uri", "/api/events/{event}/seats"))
                    .as("the page asked for no map after loading").isEqualTo(asked);
            JavascriptExecutor page = (JavascriptExecutor) viewer;
            assertThat(page.executeScript("return polling")).isNull();

            String visibility = "Object.defineProperty(document, 'hidden', {configurable: true, get: () => %s});"
                    + " document.dispatchEvent(new Event('visibilitychange'));";
            page.executeScript(visibility.formatted("true"));
            assertThat(page.executeScript("return stream")).as("a hidden page's stream is closed").isNull();
            await().atMost(Duration.ofSeconds(30)).until(() -> app.gauge("seats.map.viewers") == 0.0);
            page.executeScript(visibility.formatted("false"));
            waitFor(viewer).until(b -> Long.valueOf(1).equals(((JavascriptExecutor) b).executeScript(
                    "return stream && stream.readyState")));
            assertThat(app.book("concert", "19R", "vera@example.com", "Vera").statusCode()).isEqualTo(201);
            waitForStatus(viewer, "19R", "BOOKED");
        } finally {
            viewer.quit();
        }
    }

    /**
     * GH-20 item 5: a replica that streams to as many pages as it may answers a new page's stream with 503; the page
     * then polls every 2 s through the browser's cache, which sends the map's ETag back, so while the map is
     * unchanged the replica answers 304 with no body; the page still shows the map and its changes.
     */
    @Test
    void aPageTheReplicaWillNotStreamToPollsAndGetsNotModifiedWhileNothingChanges() throws Exception {
        try (SeatsReplica full = SeatsReplica.start("browser-full", servers, mail.getSmtp().getPort(),
                     Map.of("seats.map-max-viewers", "1"));
             MapStreamViewer taken = new MapStreamViewer(full.uri("/api/events/concert/seats/stream"))) {
            assertThat(taken.status()).isEqualTo(200);
            WebDriver viewer = HeadlessChromium.open(Viewport.DESKTOP);
            try {
                String[] notModified = {"uri", "/api/events/{event}/seats", "status", "304"};
                long before = full.timed("http.server.requests", notModified);
                browser(viewer, full, "/");
                await().atMost(Duration.ofSeconds(60)).until(() -> full.timed("http.server.requests", notModified) >= before + 2);
                assertThat(((JavascriptExecutor) viewer).executeScript("return stream")).isNull();
                assertThat(seat(viewer, "1A").getAttribute("data-status")).isIn("FREE", "BOOKED");

                assertThat(full.book("concert", "18R", "vera@example.com", "Vera").statusCode()).isEqualTo(201);
                waitForStatus(viewer, "18R", "BOOKED");
            } finally {
                viewer.quit();
            }
        }
    }

    @Test
    void aBuyerWhosePageIsBehindSubmitsAndHearsJustTakenFromTheReferee() {
        WebDriver nina = HeadlessChromium.open(Viewport.DESKTOP);
        try {
            open(nina, "/");
            seat(nina, "3D").click();
            fillIn(nina, "Nina", "nina@example.com");
            // Stop the page's live updates, as a buyer on a stalled phone would have: only the booking answer tells.
            ((JavascriptExecutor) nina).executeScript(STOP_LIVE_UPDATES);
            assertThat(app.book("concert", "3D", "sam@example.com", "Sam").statusCode()).isEqualTo(201);

            nina.findElement(By.id("book")).click();
            waitForMessage(nina, "Seat 3D was just taken");
            assertThat(seat(nina, "3D").getAttribute("data-status")).isEqualTo("BOOKED");
            assertThat(db.buyerOf("concert", "3D")).isEqualTo("sam@example.com");
            assertThat(db.count("SELECT count(*) FROM email_outbox WHERE recipient = ?", "nina@example.com")).isZero();
        } finally {
            nina.quit();
        }
    }

    @Test
    void aSeatSomeoneIsBookingShowsHeldAndTheKeyboardCanChooseASeat() {
        WebDriver kim = HeadlessChromium.open(Viewport.DESKTOP);
        try {
            open(kim, "/");
            // Another buyer's booking is in flight: the bouncer holds 9E in Redis; the map says so.
            String holdKey = new RedisKeys(servers.keyPrefix()).lock("seat:concert:9E");
            servers.redis().with(r -> r.set(holdKey, "someone-elses-token", SetArgs.Builder.px(60_000)));
            try {
                waitForStatus(kim, "9E", "HELD");
                seat(kim, "9E").click();
                waitForMessage(kim, "Someone is booking seat 9E right now");
                assertThat(kim.findElement(By.id("booking")).isDisplayed()).isFalse();
                HeadlessChromium.screenshot(kim, "seatmap-desktop-held");
            } finally {
                servers.redis().with(r -> r.del(holdKey));
            }
            waitForStatus(kim, "9E", "FREE");

            // Keyboard: focus 1A, move right and down, Enter chooses 2B; a live update keeps the focus there.
            seat(kim, "1A").click();
            kim.findElement(By.id("cancel")).click();
            seat(kim, "1A").sendKeys(Keys.ARROW_RIGHT);
            kim.switchTo().activeElement().sendKeys(Keys.ARROW_DOWN);
            assertThat(kim.switchTo().activeElement().getAttribute("data-seat")).isEqualTo("2B");
            assertThat(app.book("concert", "5B", "lee@example.com", "Lee").statusCode()).isEqualTo(201);
            waitForStatus(kim, "5B", "BOOKED");
            assertThat(kim.switchTo().activeElement().getAttribute("data-seat")).as("focus after a live update").isEqualTo("2B");
            kim.switchTo().activeElement().sendKeys(Keys.ENTER);
            waitFor(kim).until(ExpectedConditions.textToBe(By.id("chosen"), "2B"));
        } finally {
            kim.quit();
        }
    }

    /**
     * GH-21 item 11: when the replica's database cannot be reached, /api/events answers a problem; the page
     * says so (it used to hang on "Loading the seat map..." with a script error) and shows the map by itself
     * once the database is back.
     */
    @Test
    void aPageWhoseReplicaCannotReachItsDatabaseSaysSoAndRecoversWithoutAReload() throws Exception {
        try (FaultProxy link = new FaultProxy(servers.postgres().host(), servers.postgres().port())) {
            SeatsReplica dark = SeatsReplica.start("browser-dark", servers, mail.getSmtp().getPort(), Map.of(
                    "spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + link.port() + "/" + servers.database(),
                    "spring.datasource.hikari.connection-timeout", "1000",
                    "spring.datasource.hikari.data-source-properties.connectTimeout", "1"));
            WebDriver browser = HeadlessChromium.open(Viewport.DESKTOP);
            try {
                link.down();
                browser.get(dark.uri("/").toString());
                waitForMessage(browser, "The box office cannot be reached.");
                assertThat(browser.findElement(By.id("message")).getText()).contains("Trying again in");
                assertThat(browser.findElement(By.id("hall")).isDisplayed()).isFalse();
                HeadlessChromium.screenshot(browser, "seatmap-desktop-database-gone");

                link.heal();
                waitFor(browser).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("button[data-seat='1A']")));
                assertThat(browser.findElement(By.id("message")).getText()).isEmpty();
            } finally {
                browser.quit();
                dark.close();
            }
        }
    }

    @Test
    void anUnknownEventGetsAnErrorPageThatLeadsBackToTheEventsOnSale() {
        WebDriver browser = HeadlessChromium.open(Viewport.DESKTOP);
        try {
            browser.get(app.uri("/?event=nosuchevent").toString());
            waitFor(browser).until(ExpectedConditions.visibilityOfElementLocated(By.id("not-found")));
            assertThat(browser.findElement(By.id("event-name")).getText()).isEqualTo("Event not found");
            assertThat(browser.findElement(By.id("not-found-detail")).getText()).contains("nosuchevent");
            assertThat(browser.findElement(By.id("hall")).isDisplayed()).isFalse();
            assertThat(browser.findElement(By.id("booking")).isDisplayed()).isFalse();
            HeadlessChromium.screenshot(browser, "seatmap-desktop-unknown-event");
            browser.findElement(By.linkText("The Lock Ensemble, live")).click();
            waitFor(browser).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("button[data-seat='1A']")));
        } finally {
            browser.quit();
        }
    }

    @Test
    void onAPhoneEachSeatIsAFingersWidthTheMapScrollsAndABookingWorks() {
        WebDriver phone = HeadlessChromium.open(Viewport.PHONE);
        try {
            open(phone, "/");
            JavascriptExecutor js = (JavascriptExecutor) phone;
            assertThat((Long) js.executeScript("return window.innerWidth")).isEqualTo(390L);
            assertThat((Long) js.executeScript("return document.documentElement.scrollWidth"))
                    .as("the page does not scroll sideways").isLessThanOrEqualTo(390L);
            @SuppressWarnings("unchecked")
            java.util.Map<String, Number> seat1A = (java.util.Map<String, Number>) js.executeScript(
                    "const r = document.querySelector(\"button[data-seat='1A']\").getBoundingClientRect();"
                            + " return {width: r.width, height: r.height};");
            assertThat(seat1A.get("width").doubleValue()).as("a tap target").isGreaterThanOrEqualTo(44);
            assertThat(seat1A.get("height").doubleValue()).as("a tap target").isGreaterThanOrEqualTo(44);
            assertThat((Boolean) js.executeScript("const h = document.querySelector('.hall'); "
                    + "return h.scrollWidth > h.clientWidth")).as("the map scrolls inside its card").isTrue();
            WebElement hint = phone.findElement(By.id("panel-hint"));
            assertThat(hint.isDisplayed()).as("the card says what to do before a seat is chosen").isTrue();
            assertThat(hint.getText()).contains("pick a free seat on the map");
            HeadlessChromium.screenshot(phone, "seatmap-phone-start");

            // the far end of a row: scrolled to inside the map, then tapped
            js.executeScript("document.querySelector(\"button[data-seat='20F']\").scrollIntoView({inline: 'center'})");
            seat(phone, "20F").click();
            waitFor(phone).until(ExpectedConditions.visibilityOfElementLocated(By.id("booking")));
            assertThat(phone.findElement(By.id("chosen")).getText()).isEqualTo("20F");
            assertThat(hint.isDisplayed()).as("with a seat chosen, the form takes its place").isFalse();
            fillIn(phone, "Pia", "pia@example.com");
            phone.findElement(By.id("book")).click();
            waitForMessage(phone, "Booked: seat 20F is yours");
            waitForStatus(phone, "20F", "YOURS");
            assertThat(db.buyerOf("concert", "20F")).isEqualTo("pia@example.com");
            HeadlessChromium.screenshot(phone, "seatmap-phone-booked");
        } finally {
            phone.quit();
        }
    }
}
