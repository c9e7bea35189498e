package io.seatlock.localservers;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the README, docs/, bench/README.md and the CHANGELOG goes to a file that exists, and every
 * anchor to a heading of its page (GitHub's way of naming a heading's anchor); so does every link of the alert rules
 * and the dashboard in ops/ to this repository's pages (the runbooks).
 */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} (.+)$");

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : DocsPages.all()) {
            Matcher link = LINK.matcher(Files.readString(page));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                links++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(linked)) {
                    broken.add(DocsPages.ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0 && !anchors(linked).contains(target.substring(hash + 1))) {
                    broken.add(DocsPages.ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(links).as("relative links in the docs").isGreaterThan(30);
        assertThat(broken).isEmpty();
    }

    /** This repository's pages as the alert rules and the dashboard link them. */
    private static final Pattern REPOSITORY_LINK = Pattern.compile(
            "https://github\\.com/seatlock/seatlock/blob/main/([^#\\s\"|']+)(?:#([^\\s\"]+))?");

    @Test
    void everyLinkOfTheAlertRulesAndTheDashboardGoesToAPageAndHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path file : List.of(DocsPages.ROOT.resolve("ops/prometheus/seatlock-alerts.yml"),
                DocsPages.ROOT.resolve("ops/grafana/seatlock-dashboard.json"))) {
            Matcher link = REPOSITORY_LINK.matcher(Files.readString(file));
            while (link.find()) {
                links++;
                Path page = DocsPages.ROOT.resolve(link.group(1));
                if (!Files.exists(page)) {
                    broken.add(DocsPages.ROOT.relativize(file) + ": " + link.group() + " (no such file)");
                } else if (link.group(2) != null && !anchors(page).contains(link.group(2))) {
                    broken.add(DocsPages.ROOT.relativize(file) + ": " + link.group() + " (no such heading)");
                }
            }
        }
        assertThat(links).as("runbook links in ops/").isGreaterThanOrEqualTo(7);
        assertThat(broken).isEmpty();
    }

    /** GitHub's anchors: the heading in lower case, punctuation dropped, spaces as hyphens. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        if (!page.toString().endsWith(".md")) {
            return anchors;
        }
        Matcher heading = HEADING.matcher(Files.readString(page));
        while (heading.find()) {
            anchors.add(heading.group(1).strip().toLowerCase(Locale.ROOT).replace("`", "")
                    .replaceAll("[^\\p{L}\\p{N}_ -]", "").replace(' ', '-'));
        }
        return anchors;
    }
}
