package io.seatlock.seats;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives the seat map in headless Chromium (Debian's chromium and chromium-driver; paths overridable
 * with CHROME_BIN and CHROMEDRIVER): book a seat and see it turn booked, then try it from a second
 * browser session and see "just taken".
 */
class SeatMapBrowserTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatMapBrowserTest");

    private static final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private static SeatsReplica app;

    @BeforeAll
    static void start() {
        mail.start();
        app = SeatsReplica.start("browser", servers, mail.getSmtp().getPort(), null, Map.of());
    }

    @AfterAll
    static void stop() {
        app.close();
        mail.stop();
    }

    private static WebDriver browser() throws Exception {
        String binary = System.getenv().getOrDefault("CHROME_BIN", "/usr/bin/chromium");
        String driver = System.getenv().getOrDefault("CHROMEDRIVER", "/usr/bin/chromedriver");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binary);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + Files.createTempDirectory("chromium").toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(driver)).build();
        return new ChromeDriver(service, options);
    }

    /** The map re-renders every few seconds, so a found button may go stale before it is read: look again. */
    private static WebDriverWait waitFor(WebDriver browser) {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(10));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private static void clickSeat(WebDriverWait wait, String seat) {
        wait.until(d -> {
            d.findElement(By.cssSelector("button[data-seat='" + seat + "']:not([disabled])")).click();
            return true;
        });
    }

    private static void book(WebDriver browser, String seat, String name, String email) {
        WebDriverWait wait = waitFor(browser);
        browser.get(app.uri("/").toString());
        clickSeat(wait, seat);
        browser.findElement(By.id("name")).sendKeys(name);
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.id("book")).click();
    }

    @Test
    void bookASeatSeeItBookedThenSeeJustTakenFromASecondSession() throws Exception {
        WebDriver lena = browser();
        WebDriver omar = browser();
        try {
            WebDriverWait waitOmar = waitFor(omar);
            omar.get(app.uri("/").toString());
            clickSeat(waitOmar, "14C");

            book(lena, "14C", "Lena", "lena@example.com");
            WebDriverWait waitLena = waitFor(lena);
            waitLena.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "confirmed"));
            waitLena.until(ExpectedConditions.attributeToBe(By.cssSelector("button[data-seat='14C']"), "data-status", "BOOKED"));

            // Omar chose 14C before Lena booked it; he submits now.
            omar.findElement(By.id("name")).sendKeys("Omar");
            omar.findElement(By.id("email")).sendKeys("omar@example.com");
            omar.findElement(By.id("book")).click();
            waitOmar.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "just taken"));
            waitOmar.until(ExpectedConditions.attributeToBe(By.cssSelector("button[data-seat='14C']"), "data-status", "BOOKED"));
            assertThat(new SeatsDatabase(servers).buyerOf("concert", "14C")).isEqualTo("lena@example.com");
        } finally {
            lena.quit();
            omar.quit();
        }
    }
}
