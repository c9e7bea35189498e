package io.seatlock.localservers;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;

/**
 * Browser sessions for the page tests: Debian's headless Chromium driven by its ChromeDriver (installed by
 * {@code bin/test}; other paths via CHROME_BIN and CHROMEDRIVER). Each session has its own profile, so two
 * sessions are two buyers. Never skips: a missing browser fails the test.
 */
public final class HeadlessChromium {

    /** A desktop window and a phone-sized one (iPhone 12-15 CSS pixels). */
    public enum Viewport {
        DESKTOP(1280, 900), PHONE(390, 844);

        private final int width;
        private final int height;

        Viewport(int width, int height) {
            this.width = width;
            this.height = height;
        }
    }

    private HeadlessChromium() {
    }

    public static WebDriver open(Viewport viewport) {
        String binary = System.getenv().getOrDefault("CHROME_BIN", "/usr/bin/chromium");
        String driver = System.getenv().getOrDefault("CHROMEDRIVER", "/usr/bin/chromedriver");
        if (!new File(binary).canExecute() || !new File(driver).canExecute()) {
            throw new IllegalStateException("no Chromium at " + binary + " or no ChromeDriver at " + driver
                    + ": run the tests with bin/test, which installs them, or set CHROME_BIN and CHROMEDRIVER");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binary);
        Path profile;
        try {
            profile = Files.createTempDirectory("chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Without the background-networking switches Chromium keeps dialling Google, refused on closed networks.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--hide-scrollbars", "--window-size=" + viewport.width + "," + viewport.height,
                "--user-data-dir=" + profile.toAbsolutePath());
        if (viewport == Viewport.PHONE) {
            options.setExperimentalOption("mobileEmulation", Map.of("deviceMetrics",
                    Map.of("width", viewport.width, "height", viewport.height, "pixelRatio", 2.0, "touch", true)));
        }
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(driver)).build();
        return new ChromeDriver(service, options);
    }

    /** Waits up to {@code seconds} (generous: the machine may be busy); a page re-render may stale a found element. */
    public static WebDriverWait waitFor(WebDriver browser, int seconds) {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(seconds));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    /** Saves what the browser shows to {@code target/screenshots/<name>.png}, for a reviewer to look at. */
    public static Path screenshot(WebDriver browser, String name) {
        try {
            Path target = Path.of("target", "screenshots", name + ".png");
            Files.createDirectories(target.getParent());
            File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
            return Files.move(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
