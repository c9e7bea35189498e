package io.seatlock.seats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The OpenAPI document a client generator or a reader of /swagger-ui.html gets. */
class OpenApiDocumentTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OpenApiDocumentTest");

    private static final Pattern PROBLEM_TYPE = Pattern.compile("`(/problems/[a-z-]+)`");
    private static SeatsReplica app;

    @BeforeAll
    static void start() {
        app = SeatsReplica.start("openapi", servers, 1, Map.of());
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static Set<String> problemTypes(String text) {
        Set<String> types = new TreeSet<>();
        Matcher m = PROBLEM_TYPE.matcher(text);
        while (m.find()) {
            types.add(m.group(1));
        }
        return types;
    }

    @Test
    void titledVersionedTaggedByDomainAndListingEveryProblemTypeTheReadmeDocuments() throws Exception {
        JsonNode doc = new ObjectMapper().readTree(app.get("/v3/api-docs").body());

        JsonNode info = doc.get("info");
        assertThat(info.get("title").asText()).isEqualTo("seatlock tickets API");
        assertThat(info.get("version").asText()).isEqualTo("0.1.0-SNAPSHOT");
        assertThat(info.get("license").get("name").asText()).isEqualTo("Apache-2.0");

        List<String> tags = new ArrayList<>();
        doc.get("tags").forEach(t -> tags.add(t.get("name").asText()));
        assertThat(tags).containsExactlyInAnyOrder("Seats", "Bookings");
        Set<String> used = new TreeSet<>();
        doc.get("paths").forEach(path -> path.forEach(op -> op.get("tags").forEach(t -> used.add(t.asText()))));
        assertThat(used).as("no generated *-controller tags").containsExactlyInAnyOrder("Seats", "Bookings");

        String stream = doc.get("paths").get("/api/events/{event}/seats/stream").get("get").get("description").asText();
        assertThat(stream).as("the stream's figures, as the README states them").contains("alive every 5 s",
                "ends after seats.map-stream-lifetime (10m by default)", "cannot take data for 10 s", "(retry 2 s)");

        String readme = Files.readString(Path.of("..", "docs", "demo-apps.md"));
        String table = readme.substring(readme.indexOf("Every error carries one of these problem types"));
        Set<String> documented = problemTypes(table.substring(0, table.indexOf("\n* ")));
        assertThat(documented).hasSizeGreaterThan(10);
        assertThat(problemTypes(info.get("description").asText())).isEqualTo(documented);
    }
}
